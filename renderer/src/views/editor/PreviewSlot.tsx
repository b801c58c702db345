import type { ProjectRef } from '../../../../shared/ipc';

/**
 * Where the compiled previews (H8b's PreviewPanel) sit beside the editor. `files` are the
 * skill's current, unsaved buffers keyed by skill-relative path.
 */
export function PreviewSlot({ dir, files }: { project: ProjectRef; dir: string; files: ReadonlyMap<string, string> }) {
  return (
    <div className="preview-slot" data-preview-slot={dir}>
      <h3>Compiled previews</h3>
      <p className="muted small">
        What every agent receives from {dir} — the per-target previews appear here. {files.size} file{files.size === 1 ? '' : 's'} in the current buffers.
      </p>
    </div>
  );
}
