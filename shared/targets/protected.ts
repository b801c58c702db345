import { TARGETS } from './registry';

/**
 * Instruction files agents load from the project root that no target writes or detects
 * (Claude Code's CLAUDE.md, the legacy single-file rules of Cursor and Windsurf).
 */
const AGENT_ROOT_FILES = ['CLAUDE.md', 'CLAUDE.local.md', '.cursorrules', '.windsurfrules'] as const;

/**
 * Every top-level project entry an agent reads settings, hooks, skills or rules from: each
 * target's markers and the first segment of each of its outputs. A sandboxed script with
 * write permission may not touch these: what it planted there would run or steer the
 * agent later, outside any sandbox.
 */
export function agentControlledEntries(): string[] {
  const names = new Set<string>(AGENT_ROOT_FILES);
  for (const t of TARGETS) {
    for (const m of t.markers) names.add(m.split('/')[0]!);
    for (const o of t.outputs) names.add(o.split(/[/ ]/)[0]!);
  }
  return [...names].filter((n) => n !== '' && n !== '.' && n !== '..').sort();
}
