/** The two lists an install or re-pin outcome shows, spelled once for both flows. */

/** What blocks the review: one finding or policy line each, as main words it. */
export function BlockerList({ blockers }: { blockers: readonly string[] }) {
  return (
    <ul className="inst-blockers">
      {blockers.map((b) => (
        <li key={b} className="mono">
          {b}
        </li>
      ))}
    </ul>
  );
}

/** What a finished install or re-pin wants the user to know; nothing when there is nothing. */
export function DoneNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <ul className="inst-plain small muted">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}
