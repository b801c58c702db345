import type { FileState } from './session';

/** A file changed on disk while it has unsaved edits: said once per file, resolved in the diff. */
export function ConflictBanners({
  files,
  onResolve,
}: {
  files: readonly FileState[];
  onResolve: (path: string) => void;
}) {
  return (
    <>
      {files
        .filter((f) => f.conflict)
        .map((c) => (
          <div key={c.path} className="ed-banner conflict" role="alert" data-conflict={c.path}>
            <strong>{c.path}</strong>
            {c.conflict?.text === null ? ' was deleted on disk' : ' changed on disk'} while you had unsaved edits.
            Nothing is overwritten until you choose.
            <button type="button" className="btn" onClick={() => onResolve(c.path)}>
              Compare and resolve…
            </button>
          </div>
        ))}
    </>
  );
}
