import type { LivePreview as WirePreview, PreviewRequest } from '../../../shared/ipc/channels/compile';
import type { SkillTree } from '../../../shared/ksf/tree';
import { formatError } from '../../../shared/result';
import { installedSkills } from '../skills/locate';
import { readSkillTree } from '../skills/reader';
import { livePreview, type Edit, type PreviewProject } from './live';
import { toWire } from './wire';

export { livePreview, type Edit, type LivePreview, type PreviewProject } from './live';
export { ownSection, toWire, TEXT_BOUND } from './wire';

type Folder = { tree: SkillTree | null } | { broken: string };

/** Folders as they are on disk, read once per state of the files (`project`). */
const folders = new WeakMap<PreviewProject, Map<string, Folder>>();

function folder(root: string, project: PreviewProject, dir: string): Folder {
  let memo = folders.get(project);
  if (!memo) folders.set(project, (memo = new Map()));
  let hit = memo.get(dir);
  if (!hit) {
    const loc = installedSkills(root).find((l) => l.nameHint === dir);
    if (!loc) hit = { tree: null };
    else if (loc.kind === 'broken') hit = { broken: loc.problem };
    else {
      const tree = readSkillTree(loc.abs, loc.display);
      hit = tree.ok ? { tree: tree.value } : { broken: formatError(tree.error) };
    }
    memo.set(dir, hit);
  }
  return hit;
}

/** Skill `dir` of the project at `root` with `files` (its unsaved buffers) laid over its folder. */
export function editOf(root: string, project: PreviewProject, dir: string, files: ReadonlyMap<string, string>): Edit {
  const at = folder(root, project, dir);
  // Compile reads no broken folder, whatever the buffers say.
  return 'broken' in at ? { dir, tree: null, broken: at.broken, files } : { dir, tree: at.tree, files };
}

/**
 * The compiled previews of skill `req.dir` with its unsaved buffers, against `project` (the
 * project at `root` as loaded for this state of its files), as the page receives them.
 */
export function previewOf(root: string, project: PreviewProject, req: PreviewRequest): WirePreview {
  const t0 = performance.now();
  const edit = editOf(root, project, req.dir, new Map(Object.entries(req.files)));
  return toWire(livePreview(project, edit, { inactive: req.inactive }), req.dir, performance.now() - t0);
}
