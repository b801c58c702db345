import { AGENTS_MD } from './limits';
import { emitMergedOrIndex } from './common';
import type { TargetDef } from './types';

/**
 * The floor: a marked section in AGENTS.md, read eagerly by Codex and many others. Always
 * active. When a skill folder already serves AGENTS.md's readers, the section is an index line.
 */
export const agentsmd: TargetDef = {
  id: 'agentsmd',
  agent: 'anything reading AGENTS.md (Codex, Gemini CLI, …)',
  guardAbsence: 'AGENTS.md is instructions only; its readers share no hook before their shell commands',
  markers: [],
  outputs: ['AGENTS.md (section <n>: the body, or an index line when .agents/skills/ serves the same agents)'],
  shape: 'merged-section',
  loading: 'eager',
  capabilities: [],
  vendorDoc: { title: 'AGENTS.md (agentsmd/agents.md README)', url: 'https://agents.md', checked: '2026-12-01' },
  alwaysLoaded: [AGENTS_MD],
  frontmatterKeys: [],
  userInvocation: false,
  importFrom: [],
  watchRoots: ['AGENTS.md'],
  mcp: {
    gap: { reason: 'no-mcp-surface', detail: 'AGENTS.md is a prose instruction file with no configuration mechanism' },
  },
  instructions: [{ path: 'AGENTS.md', loading: 'eager' }],
  managedDirs: [],
  doctorNote: 'floor: Codex, Gemini CLI, anything reading AGENTS.md',
  servesAgentsMdReaders: false,
  detect: () => true,
  constraints: () => [],
  emit(p, _project, context) {
    return emitMergedOrIndex(this, 'AGENTS.md', p, context);
  },
};
