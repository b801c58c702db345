import { useRef } from 'react';
import { Dialog } from './Dialog';

/**
 * Asked before leaving a project that has unsaved editor buffers. They are drafts in this
 * browser's storage, so leaving does not lose them by itself — the author chooses to keep
 * them for next time or to discard them, or stays.
 */
export function SwitchDialog({
  drafts,
  onKeep,
  onDiscard,
  onCancel,
}: {
  drafts: readonly string[];
  onKeep: () => void;
  onDiscard: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  const shown = drafts.slice(0, 6);
  return (
    <Dialog
      onClose={onCancel}
      className="app-switch-dialog"
      role="alertdialog"
      labelledBy="switch-title"
      describedBy="switch-body"
      initialFocus={ref}
    >
      <div className="modal-head">
        <h2 id="switch-title">Unsaved edits in this project</h2>
      </div>
      <div id="switch-body">
        <p>
          {drafts.length === 1 ? 'One file has' : `${drafts.length} files have`} changes that are not saved to disk:
        </p>
        <ul className="mono small">
          {shown.map((d) => (
            <li key={d}>{d}</li>
          ))}
          {drafts.length > shown.length && <li className="muted">and {drafts.length - shown.length} more</li>}
        </ul>
        <p className="muted small">
          Kept edits stay in this browser and reopen in the editor when you come back to this project.
        </p>
      </div>
      <div className="modal-actions">
        <button type="button" className="btn ghost" onClick={onCancel} ref={ref}>
          Stay here
        </button>
        <button type="button" className="btn danger" onClick={onDiscard} data-action="discard-drafts">
          Discard edits and switch
        </button>
        <button type="button" className="btn primary" onClick={onKeep} data-action="keep-drafts">
          Keep edits and switch
        </button>
      </div>
    </Dialog>
  );
}
