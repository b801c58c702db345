import type { SkillReport, Totals } from './model';
import { escapeTerminal } from '../../terminal/escape';

const SYMBOL = { pass: '·', warn: '⚠', fail: '✗' } as const;

/** The tree report: a mark per skill, then one line per check (continuation lines indented). */
export function renderHuman(reports: readonly SkillReport[], t: Totals, verb: 'linted' | 'tested'): string {
  const lines: string[] = [];
  for (const r of reports) {
    const mark = r.checks.some((c) => c.status === 'fail')
      ? '✗'
      : r.checks.some((c) => c.status === 'warn')
        ? '⚠'
        : '✓';
    lines.push(`${mark} ${escapeTerminal(r.name)}`);
    for (const c of r.checks) {
      const [first, ...rest] = (c.detail ?? '').split('\n');
      lines.push(`    ${SYMBOL[c.status]} ${c.id}${first ? ` — ${first}` : ''}`);
      for (const more of rest) lines.push(`        ${more.trimStart()}`);
    }
  }
  const suffix = verb === 'tested' ? ' (static tier)' : '';
  lines.push('', `${verb} ${t.skills} skill(s) · ${t.failures} failure(s) · ${t.warnings} warning(s)${suffix}`);
  return lines.join('\n') + '\n';
}
