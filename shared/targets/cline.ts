import type { Skill } from '../ksf/model';
import { emitSkillDir } from './common';
import type { ConstraintViolation, TargetDef } from './types';

function clineConstraints(skill: Skill): ConstraintViolation[] {
  if (skill.manifest.context.disclosure !== 'eager') return [];
  return [
    {
      code: 'cline-lazy-only',
      drops: false,
      message: `${skill.manifest.skill.name} → cline: authored disclosure = "eager", but Cline loads skills on demand — the body stays out of context until the model invokes it`,
    },
  ];
}

/** Cline scans `.agents/skills/` among its skill folders; sharing that path means one copy serves all. */
export const cline: TargetDef = {
  id: 'cline',
  agent: 'Cline',
  guardAbsence:
    'Cline documents PreToolUse hook files that may block a tool call, but no way to rewrite one, and the answer format is unverified here',
  markers: ['.clinerules', '.cline'],
  outputs: ['.agents/skills/<n>/SKILL.md', '.agents/skills/<n>/scripts/** (requires scripts)'],
  shape: 'skill-dir',
  loading: 'lazy',
  capabilities: ['scripts'],
  vendorDoc: {
    title: 'Cline — Skills (cline/cline docs/customization/skills.mdx)',
    url: 'https://docs.cline.bot/customization/skills',
    checked: '2026-12-01',
  },
  skillDir: '.agents/skills',
  alwaysLoaded: [],
  frontmatterKeys: 'any',
  userInvocation: false,
  descriptionLimit: { max: 1024, unit: 'chars', drops: false, source: 'Cline skills: description ≤ 1,024 characters' },
  importFrom: [
    { dir: '.cline/skills', layout: 'skill-dir' },
    { dir: '.clinerules/skills', layout: 'skill-dir' },
    { dir: '.clinerules', layout: 'rule-file', suffix: '.md' },
  ],
  watchRoots: ['.clinerules', '.cline'],
  mcp: {
    gap: {
      reason: 'no-project-scope',
      detail: "Cline's MCP settings are global-only, so a repo-committed declaration cannot represent them",
    },
  },
  instructions: [
    { path: '.clinerules', loading: 'eager' },
    { path: '.clinerules', suffix: '.md', loading: 'eager' },
  ],
  managedDirs: [{ dir: '.clinerules', suffix: '.md' }],
  servesAgentsMdReaders: true,
  detect: (p) => p.exists('.clinerules') || p.exists('.cline'),
  constraints: clineConstraints,
  emit(p) {
    return emitSkillDir(this, '.agents/skills', p);
  },
};
