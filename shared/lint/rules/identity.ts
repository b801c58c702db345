import type { Skill } from '../../ksf/model';
import { isAgentSkillsName } from '../../names';
import type { Check } from '../types';

export function manifestCheck(skill: Skill): Check {
  const { name, version } = skill.manifest.skill;
  if (skill.manifested) return { id: 'manifest', status: 'pass', detail: `${name}@${version}` };
  const fallback = skill.frontmatter?.yamlError
    ? `; frontmatter is not valid YAML (${skill.frontmatter.yamlError}), read line by line`
    : '';
  return { id: 'manifest', status: 'warn', detail: `unmanifested (SKILL.md only) — defaults applied${fallback}` };
}

/** A valid KSF name that hosts following the Agent Skills rule may still drop. */
export function nameConventionCheck(skill: Skill): Check | undefined {
  const { name } = skill.manifest.skill;
  if (isAgentSkillsName(name)) return undefined;
  return {
    id: 'name-convention',
    status: 'warn',
    detail: `"${name}" has a leading, trailing or doubled hyphen; the Agent Skills naming rule forbids both, and several hosts drop such a skill without a word`,
  };
}
