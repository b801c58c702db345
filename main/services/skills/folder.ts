import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import type { SkillTree } from '../../../shared/ksf/tree';
import type { Result } from '../../../shared/result';
import { readSkillTree, readSkillTreeAsync } from './reader';

/** Read and load one skill folder (`display` names it in messages); a folder that does not load says why. */
export function loadFolder(abs: string, display: string, nameHint?: string): Result<Skill> {
  return loadedFrom(readSkillTree(abs, display), nameHint);
}

/** loadFolder through promises. */
export async function loadFolderAsync(abs: string, display: string, nameHint?: string): Promise<Result<Skill>> {
  return loadedFrom(await readSkillTreeAsync(abs, display), nameHint);
}

function loadedFrom(tree: Result<SkillTree>, nameHint: string | undefined): Result<Skill> {
  return tree.ok ? loadSkill(tree.value, nameHint !== undefined ? { nameHint } : {}) : tree;
}
