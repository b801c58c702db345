import type { ReviewView } from '../../../../shared/ipc/channels/install';
import { plural } from '../../../../shared/text/format';

/** What approval writes: the skills' files, then what compile generates or prunes, and the hash approval names. */
export function WritesPanel({ review }: { review: ReviewView }) {
  return (
    <section className="panel" aria-label="Files written">
      <h2>{review.blockers.length ? 'Files it would write' : 'Files written on approval'}</h2>
      {review.blockers.length > 0 && <p className="muted small">Blocked: none of these is written.</p>}
      <ul className="inst-plain mono small inst-writes">
        {review.writes.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      {review.compile && (
        <>
          <h3>Then compile</h3>
          {review.compile.errors.length ? (
            <p className="inst-warn-text small">would refuse: {review.compile.errors[0]}</p>
          ) : review.compile.writes.length + review.compile.prunes.length === 0 ? (
            <p className="muted small">changes no generated file</p>
          ) : (
            <CompileList writes={review.compile.writes} prunes={review.compile.prunes} />
          )}
        </>
      )}
      <p className="muted small mono inst-integrity" title="the approval names exactly this hash">
        integrity {review.integrity}
      </p>
    </section>
  );
}

function CompileList({ writes, prunes }: { writes: readonly string[]; prunes: readonly string[] }) {
  const list = (
    <ul className="inst-plain mono small inst-compile">
      {writes.map((w) => (
        <li key={w}>+ {w}</li>
      ))}
      {prunes.map((w) => (
        <li key={w} className="inst-prune">
          − {w}
        </li>
      ))}
    </ul>
  );
  if (writes.length + prunes.length <= 8) return list;
  return (
    <details>
      <summary className="small muted">
        writes {plural(writes.length, 'generated file')}
        {prunes.length ? `, prunes ${prunes.length}` : ''}
      </summary>
      {list}
    </details>
  );
}
