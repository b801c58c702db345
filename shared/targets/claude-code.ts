import { emitSkillDir, header } from './common';
import type { TargetDef } from './types';

/**
 * Claude Code: `.claude/skills/<n>/SKILL.md` (+ `allowed-tools`, + scripts/) and one command shim per trigger command.
 */
export const claudeCode: TargetDef = {
  id: 'claude-code',
  agent: 'Claude Code',
  markers: ['.claude'],
  outputs: [
    '.claude/skills/<n>/SKILL.md',
    '.claude/skills/<n>/scripts/** (requires scripts)',
    '.claude/commands/<command>.md',
  ],
  shape: 'skill-dir',
  loading: 'lazy',
  capabilities: ['scripts'],
  nativeTools: 'comma',
  vendorDoc: {
    title: 'Claude Code — Agent Skills and slash commands (code.claude.com/docs/en/skills)',
    url: 'https://code.claude.com/docs/en/skills',
    checked: '2026-12-01',
  },
  skillDir: '.claude/skills',
  alwaysLoaded: [],
  frontmatterKeys: 'any',
  userInvocation: true,
  actsOn: {
    keys: [
      'hooks',
      'allowed-tools',
      'disallowed-tools',
      'context',
      'agent',
      'model',
      'disable-model-invocation',
      'user-invocable',
    ],
    dynamicContext: true,
    source:
      'code.claude.com/docs/en/skills: hooks run on tool events, allowed-tools pre-approves tools, context: fork runs the skill in a subagent; !`command` lines run when the skill loads',
  },
  descriptionLimit: {
    max: 1536,
    unit: 'chars',
    drops: false,
    source: 'Claude Code skills listing: each description is cut at 1,536 characters',
  },
  listingBudget: {
    perSkillChars: 1536,
    totalChars: 30_000,
    overflow: 'name-only',
    entryChars: { fixed: 5, perName: 1 },
    // Its bundled skills, measured (4,284 characters of lines); /review and /security-review come
    // after the project's skills and take only what is left.
    builtIn: [
      { name: 'deep-research', descriptionChars: 470 },
      { name: 'update-config', descriptionChars: 690 },
      { name: 'keybindings-help', descriptionChars: 228 },
      { name: 'verify', descriptionChars: 250 },
      { name: 'code-review', descriptionChars: 346 },
      { name: 'simplify', descriptionChars: 176 },
      { name: 'fewer-permission-prompts', descriptionChars: 163 },
      { name: 'loop', descriptionChars: 306 },
      { name: 'claude-api', descriptionChars: 1068 },
      { name: 'run', descriptionChars: 361 },
      { name: 'init', descriptionChars: 59 },
    ],
    source:
      'Claude Code 2.1.197 (default model), measured through tests/agents: the skills listing keeps to about 30,000 characters with its bundled skills first; past it a skill is listed by name alone, never left out; descriptions are cut at 1,536 characters (documented)',
    measured: { version: '2.1.197', checked: '2026-12-07' },
  },
  importFrom: [{ dir: '.claude/skills', layout: 'skill-dir' }],
  watchRoots: ['.claude'],
  mcp: { path: '.mcp.json', shape: 'claude-mcp-json', merged: false },
  instructions: [{ path: 'CLAUDE.md', loading: 'eager' }],
  managedDirs: [
    { dir: '.claude/skills', suffix: '/SKILL.md', wholeDir: true },
    { dir: '.claude/commands', suffix: '.md' },
  ],
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('.claude'),
  constraints: () => [],
  emit(p) {
    const base = emitSkillDir(this, '.claude/skills', p, { allowedTools: this.nativeTools });
    const shims = p.skill.manifest.triggers.commands.map((cmd) => ({
      path: `.claude/commands/${cmd.replace(/^\//, '')}.md`,
      content: `${header(p)}\n\nLoad the "${p.name}" skill: read .claude/skills/${p.name}/SKILL.md and follow it exactly.\n\nArguments: $ARGUMENTS\n`,
    }));
    return { ...base, files: [...base.files, ...shims] };
  },
};
