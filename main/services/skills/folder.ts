import { formatLoadError, type Result } from '../../../shared/ksf/errors';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import type { SkillTree } from '../../../shared/ksf/tree';
import { readSkillTree, readSkillTreeAsync } from './reader';

export type LoadedFolder = { ok: true; skill: Skill } | { ok: false; message: string };

/** Read and load one skill folder (`display` names it in messages); a folder that does not load says why. */
export function loadFolder(abs: string, display: string, nameHint?: string): LoadedFolder {
  return loadedFrom(readSkillTree(abs, display), nameHint);
}

/** loadFolder through promises. */
export async function loadFolderAsync(abs: string, display: string, nameHint?: string): Promise<LoadedFolder> {
  return loadedFrom(await readSkillTreeAsync(abs, display), nameHint);
}

function loadedFrom(tree: Result<SkillTree>, nameHint: string | undefined): LoadedFolder {
  if (!tree.ok) return { ok: false, message: formatLoadError(tree.error) };
  const loaded = loadSkill(tree.value, nameHint !== undefined ? { nameHint } : {});
  return loaded.ok ? { ok: true, skill: loaded.value } : { ok: false, message: formatLoadError(loaded.error) };
}
