import { join } from 'node:path';
import { fail, ok, type Result } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { type Skill } from '../../../shared/ksf/model';
import { isKsfName } from '../../../shared/names';
import { lintSkill } from '../../../shared/lint/checks';
import { skillVerdict, type SkillVerdict } from '../../../shared/policy/verdict';
import type { ProjectConfig } from '../../../shared/project/config';
import { treeIntegrityFast } from '../lock/index';
import { readProjectConfig } from '../project/config';
import { SKILLS_DIR } from '../skills/locate';
import { readSkillTree } from '../skills/reader';

/** The verdict of a loaded skill whose tree hashes to `integrity`, under the project's policy and exceptions. */
export function verdictOfSkill(
  skill: Skill,
  integrity: string,
  config: Pick<ProjectConfig, 'policy' | 'exceptions' | 'unconfirmedExceptions'>,
): SkillVerdict {
  return skillVerdict(lintSkill(skill), {
    skill: skill.manifest.skill.name,
    integrity,
    ...(config.policy ? { policy: config.policy } : {}),
    exceptions: config.exceptions,
    ...(config.unconfirmedExceptions ? { unconfirmed: config.unconfirmedExceptions } : {}),
  });
}

export type VerdictLookup = Result<{
  readonly name: string;
  readonly version: string;
  readonly integrity: string;
  readonly verdict: SkillVerdict;
}>;

/**
 * The current verdict of an installed skill, read from disk now: what `run`, `gate`, the
 * Runs tab and evals consult before they execute anything of it. The integrity is of the
 * very files that were checked, so an exception can only match what was read.
 */
export function verdictFor(projectRoot: string, name: string): VerdictLookup {
  if (!isKsfName(name)) return fail('invalid-request', `"${name}" is not a skill name`);
  const tree = readSkillTree(join(projectRoot, SKILLS_DIR, name), `${SKILLS_DIR}/${name}`.split('\\').join('/'));
  if (!tree.ok) return tree;
  const loaded = loadSkill(tree.value, { nameHint: name });
  if (!loaded.ok) return loaded;
  const config = readProjectConfig(projectRoot);
  if (!config.ok) return config;
  const integrity = treeIntegrityFast(tree.value);
  const m = loaded.value.manifest.skill;
  const verdict = verdictOfSkill(loaded.value, integrity, config.value);
  return ok({ name: m.name, version: m.version, integrity, verdict });
}
