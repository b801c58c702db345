import { useEffect, useRef } from 'react';
import { languageOf, monaco, themeName } from '../../monaco/setup';
import type { FileState } from './session';
import { Dialog } from '../../components/Dialog';

/**
 * The conflict: the disk's version (left, read-only) against the author's buffer (right,
 * the live model — edits made here are the buffer). The author keeps theirs (it is written
 * over the disk), takes the disk's (their buffer stays one undo away), or closes and
 * decides later. Nothing is written without a choice.
 */
export function DiffDialog({
  file,
  onKeepMine,
  onTakeDisk,
  onClose,
}: {
  file: FileState;
  onKeepMine: () => void;
  onTakeDisk: () => void;
  onClose: () => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const disk = file.conflict?.text ?? null;
  useEffect(() => {
    if (!host.current) return;
    const original = monaco.editor.createModel(disk ?? '', languageOf(file.path));
    const diff = monaco.editor.createDiffEditor(host.current, {
      theme: themeName(),
      automaticLayout: true,
      renderSideBySide: true,
      originalEditable: false,
      minimap: { enabled: false },
      wordWrap: 'on',
      diffWordWrap: 'on',
      fontSize: 13,
      scrollBeyondLastLine: false,
    });
    diff.setModel({ original, modified: file.model });
    return () => {
      diff.setModel(null);
      diff.dispose();
      original.dispose();
    };
  }, [file, disk]);
  return (
    <Dialog
      onClose={onClose}
      className="ed-diff-dialog"
      backdropClassName="ed-modal-backdrop"
      label={`Resolve ${file.path}`}
      backdropCloses={false}
    >
      <div className="ed-diff-head">
        <h2>
          {file.path} {disk === null ? 'was deleted on disk' : 'changed on disk'}
        </h2>
        <p className="muted small">
          Left: what is on disk now. Right: your version — edit it here to merge both, then keep it.
        </p>
      </div>
      <div className="ed-diff-cols small">
        <span>On disk</span>
        <span>Your version (editable)</span>
      </div>
      <div className="ed-diff-host" ref={host} />
      <div className="ed-diff-actions">
        <button type="button" className="btn ghost" onClick={onClose}>
          Decide later
        </button>
        <button type="button" className="btn" onClick={onTakeDisk} data-action="take-disk">
          {disk === null ? 'Discard my version' : 'Use the disk version'}
        </button>
        <button type="button" className="btn primary" onClick={onKeepMine} data-action="keep-mine">
          Save my version
        </button>
      </div>
    </Dialog>
  );
}
