import { AGENT_SKILLS_DESCRIPTION } from './limits';
import { emitSkillDir } from './common';
import type { TargetDef } from './types';

/** The vendor-neutral `.agents/skills/` folder (Codex, Cursor, Copilot, Gemini, Zed, Cline read it). */
export const agents: TargetDef = {
  id: 'agents',
  agent: 'Codex and other .agents/skills readers',
  guardAbsence:
    "Codex 0.171.0 has PreToolUse hooks (.codex/hooks.json), but runs a project's hook only after each user trusts the project and the hook's hash in their own ~/.codex/config.toml (checked with the binary), so a committed hook does not hold for a teammate",
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
  // Several agents read these folders; a key counts when one of them is documented to act on it.
  actsOn: {
    keys: ['allowed-tools', 'context', 'user-invocable'],
    source: 'GitHub Copilot (allowed-tools, context, user-invocable) and Cursor (user-invocable) read these skills',
  },
  descriptionLimit: AGENT_SKILLS_DESCRIPTION,
  /*
   * Codex CLI 0.171.0, measured 2026-12-07 through tests/agents (tests/agents/codex.test.ts).
   * Each listed skill is a line `- name: description (file: r1/name/SKILL.md)`, and the lines,
   * its four bundled skills' first, share 2% of the model's context window counted as tokens
   * of 4 bytes: 10,000 tokens (40,000 bytes) for its default model, gpt-6.2-sol, and 5,440
   * for a model it has no metadata for (a 272,000-token window). Over it, every description
   * is shortened to the same length (within 4 bytes); at 600 skills none were left out, and
   * 150 skills at Skillsmith's longest description (200 characters) fit whole.
   */
  listingBudget: {
    totalChars: 40_000,
    overflow: 'shorten',
    entryChars: { fixed: 26, perName: 2 },
    builtIn: [
      { name: 'imagegen', descriptionChars: 570 },
      { name: 'openai-docs', descriptionChars: 624 },
      { name: 'skill-creator', descriptionChars: 106 },
      { name: 'skill-installer', descriptionChars: 225 },
    ],
    source:
      'Codex CLI 0.171.0, measured 2026-12-07 through tests/agents: 2% of the context window (about 40,000 characters with its default model), descriptions shortened evenly past it',
  },
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
