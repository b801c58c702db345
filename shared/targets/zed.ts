import { emitSkillDir } from './common';
import { utf8Length } from '../text/utf8';
import type { ConstraintViolation, TargetDef } from './types';
import type { Skill } from '../ksf/model';
import { AGENT_SKILLS_NAME_RE, isAgentSkillsName } from '../names';

/** Zed's description limit, in UTF-8 bytes. */
export const ZED_DESCRIPTION_MAX_BYTES = 1024;
const DROPPED = 'Zed drops the skill at load with no diagnostic';

/** Rules Zed applies when loading a skill; each violation makes Zed drop it silently. */
export function zedConstraints(skill: Skill): ConstraintViolation[] {
  const { name, description } = skill.manifest.skill;
  const out: ConstraintViolation[] = [];
  // Zed enforces the Agent Skills name rule.
  if (!isAgentSkillsName(name)) {
    out.push({
      code: 'zed-name',
      drops: true,
      message: `${name} → zed: name must match ${AGENT_SKILLS_NAME_RE.source} — no leading, trailing or doubled hyphen; ${DROPPED}`,
    });
  }
  const bytes = utf8Length(description);
  if (!description.trim())
    out.push({
      code: 'zed-description-empty',
      drops: true,
      message: `${name} → zed: description is empty; ${DROPPED}`,
    });
  else if (bytes > ZED_DESCRIPTION_MAX_BYTES) {
    out.push({
      code: 'zed-description-bytes',
      drops: true,
      message: `${name} → zed: description is ${bytes} bytes, over Zed's ${ZED_DESCRIPTION_MAX_BYTES}-byte limit (the limit is bytes, not characters); ${DROPPED}`,
    });
  }
  return out;
}

/** Zed reads only `.agents/skills/`; it writes the file the `agents` target writes, byte for byte. */
export const zed: TargetDef = {
  id: 'zed',
  agent: 'Zed',
  guardAbsence: 'Zed documents no hook before its terminal commands',
  markers: ['.zed'],
  outputs: ['.agents/skills/<n>/SKILL.md', '.agents/skills/<n>/scripts/** (requires scripts)'],
  shape: 'skill-dir',
  loading: 'lazy',
  capabilities: ['scripts'],
  vendorDoc: {
    title: 'Zed — Skills (zed-industries/zed docs/src/ai/skills.md)',
    url: 'https://zed.dev/docs/ai/skills',
    checked: '2026-12-01',
  },
  skillDir: '.agents/skills',
  alwaysLoaded: [],
  frontmatterKeys: 'any',
  userInvocation: true,
  actsOn: { keys: ['disable-model-invocation'], source: 'zed-industries/zed docs/src/ai/skills.md' },
  listingBudget: {
    totalChars: 50 * 1024,
    source: 'Zed: the skills catalog is capped at 50 KB; skills that do not fit are dropped with a warning',
  },
  importFrom: [],
  watchRoots: ['.zed'],
  mcp: { path: '.zed/settings.json', shape: 'zed-settings', merged: true },
  instructions: [],
  managedDirs: [],
  servesAgentsMdReaders: true,
  detect: (p) => p.exists('.zed'),
  constraints: zedConstraints,
  emit(p) {
    return emitSkillDir(this, '.agents/skills', p);
  },
};
