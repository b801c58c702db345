import { estimateTokens } from '../ksf/tokens';
import { emitRuleFile, userOnly, yamlString } from './common';
import type { TargetDef } from './types';

/** Cursor: an agent-requested rule (`alwaysApply: false`, description only) per skill. */
export const cursor: TargetDef = {
  id: 'cursor',
  agent: 'Cursor',
  guardAbsence:
    'Cursor documents beforeShellExecution hooks in .cursor/hooks.json, but its agent is not on npm, so no run here has proven one',
  markers: ['.cursor'],
  outputs: ['.cursor/rules/<n>.mdc'],
  shape: 'rule-file',
  loading: 'lazy',
  capabilities: [],
  vendorDoc: {
    title: 'Cursor — Rules (cursor.com/docs/context/rules)',
    url: 'https://cursor.com/docs/context/rules',
    checked: '2026-12-01',
  },
  alwaysLoaded: [],
  frontmatterKeys: ['description', 'globs', 'alwaysApply'],
  userInvocation: true,
  importFrom: [
    { dir: '.cursor/rules', layout: 'rule-file', suffix: '.mdc' },
    { dir: '.cursor/skills', layout: 'skill-dir' },
  ],
  watchRoots: ['.cursor'],
  mcp: { path: '.cursor/mcp.json', shape: 'cursor-mcp-json', merged: false },
  instructions: [
    { path: '.cursorrules', loading: 'eager' },
    { path: '.cursor/rules', suffix: '.mdc', loading: 'lazy' },
  ],
  managedDirs: [{ dir: '.cursor/rules', suffix: '.mdc' }],
  planNotes(ready, plan) {
    // Cursor also reads .agents/skills/, so beside it every skill is offered twice.
    if (!plan.agentsDirWritten || !ready.length) return [];
    const dup = ready.reduce((sum, p) => sum + estimateTokens(p.description), 0);
    return [
      `cursor: each skill is offered twice — as a rule (.cursor/rules/) and as a skill (.agents/skills/), which Cursor also reads. Both sit in its "Agent Decides" pool with no documented dedup, so ~${dup} tok of trigger description is charged twice. Cursor's own /migrate-to-skills converts rules of this shape into skills — drop "cursor" from [project].targets if every Cursor you support is 2.4 or newer.`,
    ];
  },
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('.cursor'),
  constraints: () => [],
  emit(p) {
    // A user-only skill becomes a manual rule (no description: applied only when @-mentioned).
    const fm = userOnly(p)
      ? ['alwaysApply: false']
      : [`description: ${yamlString(p.description)}`, 'alwaysApply: false'];
    return emitRuleFile(this, `.cursor/rules/${p.name}.mdc`, fm, p);
  },
};
