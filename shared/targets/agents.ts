import { AGENT_SKILLS_DESCRIPTION, CODEX_LISTING } from './limits';
import { emitSkillDir } from './common';
import type { TargetDef } from './types';

/** The vendor-neutral `.agents/skills/` folder (Codex, Cursor, Copilot, Gemini, Zed, Cline read it). */
export const agents: TargetDef = {
  id: 'agents',
  agent: 'Codex and other .agents/skills readers',
  markers: ['.agents', '.codex'],
  outputs: ['.agents/skills/<n>/SKILL.md', '.agents/skills/<n>/scripts/** (requires scripts)'],
  shape: 'skill-dir',
  loading: 'lazy',
  capabilities: ['scripts'],
  vendorDoc: {
    title: 'Agent Skills specification (agentskills.io/specification)',
    url: 'https://agentskills.io/specification',
    checked: '2026-12-01',
  },
  skillDir: '.agents/skills',
  alwaysLoaded: [],
  frontmatterKeys: 'any',
  userInvocation: false,
  descriptionLimit: AGENT_SKILLS_DESCRIPTION,
  listingBudget: CODEX_LISTING,
  importFrom: [{ dir: '.agents/skills', layout: 'skill-dir' }],
  watchRoots: ['.agents', '.codex'],
  mcp: {
    gap: {
      reason: 'unconfirmed-path',
      detail:
        'the vendor-neutral .agents/ convention has no confirmed MCP file; the only candidate is a third-party draft no client reads',
    },
  },
  instructions: [],
  managedDirs: [{ dir: '.agents/skills', suffix: '/SKILL.md', wholeDir: true }],
  servesAgentsMdReaders: true,
  detect: (p) => p.exists('.agents') || p.exists('.codex'),
  constraints: () => [],
  emit(p) {
    return emitSkillDir(this, '.agents/skills', p);
  },
};
