import { emitSkillDir } from './common';
import type { TargetDef } from './types';

/** Gemini CLI skills in `.gemini/skills/` (served by `.agents/skills/` when that is written). */
export const gemini: TargetDef = {
  id: 'gemini',
  agent: 'Gemini CLI',
  guardAbsence:
    "Gemini CLI 0.61.0 has BeforeTool hooks in .gemini/settings.json that can deny or rewrite a shell command, but loads a project's hooks only in a folder the user trusted (checked with the binary); not lowered yet",
  markers: ['GEMINI.md', '.gemini'],
  outputs: ['.gemini/skills/<n>/SKILL.md', '.gemini/skills/<n>/scripts/** (requires scripts)'],
  shape: 'skill-dir',
  loading: 'lazy',
  capabilities: ['scripts'],
  vendorDoc: {
    title: 'Gemini CLI — Agent Skills (google-gemini/gemini-cli docs/cli/skills.md)',
    url: 'https://geminicli.com/docs/cli/skills/',
    checked: '2026-12-01',
  },
  skillDir: '.gemini/skills',
  readsAgentsSkills: true,
  alwaysLoaded: [],
  frontmatterKeys: 'any',
  userInvocation: false,
  // No descriptionLimit: Gemini CLI neither cuts nor ignores a description over the Agent
  // Skills specification's 1,024 characters (measured with ones up to 4,509 characters).
  listingBudget: {
    measured: { version: '0.61.0', checked: '2026-12-07' },
    source:
      'Gemini CLI 0.61.0, measured 2026-12-07 through tests/agents: every skill is listed in the system instruction with its whole description (150 skills, 341,208 description characters, none over 4,509, none cut or left out)',
  },
  importFrom: [{ dir: '.gemini/skills', layout: 'skill-dir' }],
  watchRoots: ['GEMINI.md', '.gemini'],
  mcp: { path: '.gemini/settings.json', shape: 'gemini-settings', merged: true },
  instructions: [{ path: 'GEMINI.md', loading: 'eager' }],
  managedDirs: [{ dir: '.gemini/skills', suffix: '/SKILL.md', wholeDir: true }],
  servesAgentsMdReaders: true,
  detect: (p) => p.exists('GEMINI.md') || p.exists('.gemini'),
  constraints: () => [],
  emit(p) {
    return emitSkillDir(this, '.gemini/skills', p);
  },
};
