import { formatError, type SkillsmithError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import type { FailedSkill } from '../../../shared/compile/plan';
import { installedSkills } from '../skills/locate';
import { readSkillTree } from '../skills/reader';

/** Every folder under .kitbash/skills/: the skills that load, and the folders that do not. */
export function loadInstalled(root: string): { skills: Skill[]; failures: FailedSkill[] } {
  const skills: Skill[] = [];
  const failures: FailedSkill[] = [];
  for (const loc of installedSkills(root)) {
    if (loc.kind === 'broken') {
      failures.push({ name: loc.nameHint, message: loc.problem });
      continue;
    }
    const tree = readSkillTree(loc.abs, loc.display);
    if (!tree.ok) {
      failures.push({ name: loc.nameHint, message: oneLine(tree.error) });
      continue;
    }
    const loaded = loadSkill(tree.value);
    if (!loaded.ok) failures.push({ name: loc.nameHint, message: oneLine(loaded.error) });
    else skills.push(loaded.value);
  }
  return { skills, failures };
}

/** A load error on one line: the file, the problem, and the manifest violations after a dash. */
export function oneLine(e: SkillsmithError): string {
  const head = formatError({ ...e, detail: [] });
  return e.detail?.length ? `${head} — ${e.detail.join('; ')}` : head;
}
