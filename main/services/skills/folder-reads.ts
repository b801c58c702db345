import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import type { SkillTree } from '../../../shared/ksf/tree';
import type { Result } from '../../../shared/result';
import { treeIntegrityFast } from '../lock';
import { readSkillTree } from './reader';

/** How a pass over a project reads, loads and hashes installed skill folders. */
export interface FolderReads {
  tree(absDir: string, displayRoot: string): Result<SkillTree>;
  skill(tree: SkillTree, nameHint?: string): Result<Skill>;
  integrity(tree: SkillTree): string;
}

const load = (tree: SkillTree, nameHint: string | undefined) =>
  loadSkill(tree, nameHint === undefined ? {} : { nameHint });

/** Every question answered afresh: for anything but one bounded pass. */
export const READ_EACH_TIME: FolderReads = { tree: readSkillTree, skill: load, integrity: treeIntegrityFast };

/**
 * Each folder read, loaded and hashed once for the life of the returned reads. One
 * dashboard scan asks for every installed folder three times (its rows, the project
 * status, the agents' skills listing); reads made for that scan answer all three from
 * one read of the disk — about a third of the scan's time at 1,000 skills — so they also
 * agree on what each folder held. Trees and skills are immutable, so sharing them is safe;
 * the memo lives only as long as the pass that made it.
 */
export function folderReadsOnce(): FolderReads {
  const trees = new Map<string, Result<SkillTree>>();
  const skills = new WeakMap<SkillTree, Map<string | undefined, Result<Skill>>>();
  const hashes = new WeakMap<SkillTree, string>();
  return {
    tree(absDir, displayRoot) {
      const key = `${absDir}\0${displayRoot}`;
      let tree = trees.get(key);
      if (!tree) trees.set(key, (tree = readSkillTree(absDir, displayRoot)));
      return tree;
    },
    skill(tree, nameHint) {
      let byHint = skills.get(tree);
      if (!byHint) skills.set(tree, (byHint = new Map()));
      let loaded = byHint.get(nameHint);
      if (!loaded) byHint.set(nameHint, (loaded = load(tree, nameHint)));
      return loaded;
    },
    integrity(tree) {
      let hash = hashes.get(tree);
      if (hash === undefined) hashes.set(tree, (hash = treeIntegrityFast(tree)));
      return hash;
    },
  };
}
