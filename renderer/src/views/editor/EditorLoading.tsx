/** Shown while a lazily loaded part of the editor arrives: the editor's chunk, then Monaco's. */
export function EditorLoading() {
  return <main className="ed-page muted">Loading the editor…</main>;
}
