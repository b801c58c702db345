import { AGENT_SKILLS_DESCRIPTION } from './limits';
import { emitSkillDir } from './common';
import type { TargetDef } from './types';

/** GitHub Copilot skills in `.github/skills/` (served by `.agents/skills/` when that is written). */
export const copilot: TargetDef = {
  id: 'copilot',
  agent: 'GitHub Copilot',
  guardAbsence:
    'Copilot CLI documents preToolUse hooks in .github/hooks/ that deny on error, but its CLI needs a GitHub sign-in, so no run here has proven one',
  markers: ['.github'],
  outputs: ['.github/skills/<n>/SKILL.md', '.github/skills/<n>/scripts/** (requires scripts)'],
  shape: 'skill-dir',
  loading: 'lazy',
  capabilities: ['scripts'],
  nativeTools: 'space',
  vendorDoc: {
    title: 'GitHub Docs — About agent skills (github/docs content/copilot/concepts/agents/about-agent-skills.md)',
    url: 'https://docs.github.com/en/copilot/concepts/agents/about-agent-skills',
    checked: '2026-12-01',
  },
  skillDir: '.github/skills',
  readsAgentsSkills: true,
  alwaysLoaded: [],
  frontmatterKeys: 'any',
  userInvocation: true,
  actsOn: {
    keys: ['allowed-tools', 'context', 'disable-model-invocation', 'user-invocable'],
    source: 'github/docs content/copilot/concepts/agents/about-agent-skills.md',
  },
  descriptionLimit: AGENT_SKILLS_DESCRIPTION,
  importFrom: [
    { dir: '.github/skills', layout: 'skill-dir' },
    { dir: '.github/instructions', layout: 'rule-file', suffix: '.instructions.md' },
  ],
  watchRoots: ['.github'],
  mcp: { path: '.github/mcp.json', shape: 'copilot-mcp-json', merged: false },
  instructions: [
    { path: '.github/copilot-instructions.md', loading: 'eager' },
    { path: '.github/instructions', suffix: '.instructions.md', loading: 'eager' },
  ],
  managedDirs: [
    { dir: '.github/skills', suffix: '/SKILL.md', wholeDir: true },
    { dir: '.github/instructions', suffix: '.instructions.md' },
  ],
  servesAgentsMdReaders: true,
  detect: (p) => p.exists('.github'),
  constraints: () => [],
  emit(p) {
    return emitSkillDir(this, '.github/skills', p, { allowedTools: this.nativeTools });
  },
};
