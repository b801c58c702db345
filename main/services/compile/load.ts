import { formatError, type SkillsmithError } from '../../../shared/result';
import type { Skill } from '../../../shared/ksf/model';
import type { CompileInput, FailedSkill } from '../../../shared/compile/plan';
import { readProjectConfig } from '../project/config';
import { installedSkills } from '../skills/locate';
import { READ_EACH_TIME, type FolderReads } from '../skills/folder-reads';

const SKILLS_REL = '.kitbash/skills';

/** How a file or folder was read: its entries listed, its bytes read (never through a link). */
export type SourceRead = (rel: string, how: 'listed' | 'read') => void;

/**
 * Every folder under .kitbash/skills/: the skills that load, and the folders that do not.
 * `seen` hears each path that was read, relative to `root` (for the compile record).
 */
export function loadInstalled(
  root: string,
  seen?: SourceRead,
  reads: FolderReads = READ_EACH_TIME,
): { skills: Skill[]; failures: FailedSkill[] } {
  const skills: Skill[] = [];
  const failures: FailedSkill[] = [];
  seen?.(SKILLS_REL, 'listed');
  for (const loc of installedSkills(root)) {
    if (loc.kind === 'broken') {
      failures.push({ name: loc.nameHint, message: loc.problem });
      continue;
    }
    const tree = reads.tree(loc.abs, loc.display);
    if (!tree.ok) {
      failures.push({ name: loc.nameHint, message: oneLine(tree.error) });
      continue;
    }
    if (seen) {
      seen(loc.display, 'listed');
      for (const e of tree.value.entries) seen(`${loc.display}/${e.path}`, e.kind === 'dir' ? 'listed' : 'read');
    }
    const loaded = reads.skill(tree.value);
    if (!loaded.ok) failures.push({ name: loc.nameHint, message: oneLine(loaded.error) });
    else skills.push(loaded.value);
  }
  return { skills, failures };
}

/** What the planner needs from the disk besides the project view: kitbash.toml (its errors throw) and the skills. */
export function loadCompileInput(root: string, seen?: SourceRead): Omit<CompileInput, 'project'> {
  const config = readProjectConfig(root);
  if (!config.ok) throw new Error(formatError(config.error));
  return { ...loadInstalled(root, seen), config: config.value };
}

/** A load error on one line: the file, the problem, and the manifest violations after a dash. */
export function oneLine(e: SkillsmithError): string {
  const head = formatError({ ...e, detail: [] });
  return e.detail?.length ? `${head} — ${e.detail.join('; ')}` : head;
}
