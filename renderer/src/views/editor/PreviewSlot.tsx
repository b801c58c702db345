import { memo } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { PreviewPanel } from '../previews/PreviewPanel';

/**
 * The compiled previews (the previews area's PreviewPanel) beside the editor, fed the
 * skill's current, unsaved buffers keyed by skill-relative path.
 */
export const PreviewSlot = memo(function PreviewSlot({
  project,
  dir,
  files,
  dirty,
}: {
  project: ProjectRef;
  dir: string;
  files: ReadonlyMap<string, string>;
  dirty: boolean;
}) {
  return <PreviewPanel project={project} dir={dir} files={files} dirty={dirty} />;
});
