import type { EvalResult } from './model';
import { trialJson } from './trial-json';
import { totalUsage, usageTotalText, type UsageTotal } from './usage';

/**
 * `--json`: the shape the issue fixes, plus the trigger scores, the effect interval, token
 * usage, every trial, and (`header`) what identifies the run for `eval merge`.
 */
export function evalJson(
  results: readonly EvalResult[],
  problems: readonly string[] = [],
  header?: Record<string, unknown>,
): string {
  const all = totalUsage(results.flatMap((r) => r.trialResults));
  return (
    JSON.stringify(
      {
        ...(header ? { run: header } : {}),
        results: results.map((r) => ({
          skill: r.skill,
          eval: r.eval,
          runner: r.runner,
          trials: r.trials,
          passed: r.passed,
          pass_rate: round(r.passRate),
          baseline_pass_rate: r.baselinePassRate === null ? null : round(r.baselinePassRate),
          triggered_rate: r.triggeredRate === null ? null : round(r.triggeredRate),
          assertions: r.assertions.map((a) => ({ kind: a.kind, passed: a.status === 'pass', detail: a.detail })),
          ...(r.delta
            ? {
                delta: {
                  value: round(r.delta.value),
                  interval: r.delta.interval ? [round(r.delta.interval.low), round(r.delta.interval.high)] : null,
                },
              }
            : {}),
          ...(r.trigger
            ? { precision: nullableRound(r.trigger.precision), recall: nullableRound(r.trigger.recall) }
            : {}),
          ...(r.error ? { error: r.error } : {}),
          version: r.version,
          tier: r.tier,
          threshold: r.threshold,
          usage: usageJson(totalUsage(r.trialResults)),
          trial_results: r.trialResults.map(trialJson),
        })),
        usage: usageJson(all),
        ...(problems.length ? { problems } : {}),
      },
      null,
      2,
    ) + '\n'
  );
}

/** Null when no trial reported usage: unknown, not zero. */
function usageJson(u: UsageTotal | null): Record<string, unknown> | null {
  if (!u) return null;
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cached_tokens: u.cachedTokens,
    cost_usd: u.costUsd,
    trials_reported: u.reported,
    trials: u.trials,
  };
}

const round = (x: number): number => Math.round(x * 10000) / 10000;
const nullableRound = (x: number | null): number | null => (x === null ? null : round(x));
const pct = (x: number | null): string => (x === null ? '—' : `${Math.round(x * 100)}%`);

/** JUnit XML for CI: one testsuite per skill, one testcase per eval × runner. */
export function evalJunit(results: readonly EvalResult[]): string {
  const bySkill = new Map<string, EvalResult[]>();
  for (const r of results) bySkill.set(r.skill, [...(bySkill.get(r.skill) ?? []), r]);
  const failures = results.filter((r) => !r.passed).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="skillsmith eval" tests="${results.length}" failures="${failures}">`,
  ];
  for (const [skill, rs] of bySkill) {
    const time = (ms: number): string => (ms / 1000).toFixed(3);
    lines.push(
      `  <testsuite name="${xml(skill)}" tests="${rs.length}" failures="${rs.filter((r) => !r.passed).length}">`,
    );
    for (const r of rs) {
      const ms = r.trialResults.reduce((s, t) => s + t.durationMs, 0);
      lines.push(`    <testcase classname="${xml(`${skill}.${r.runner}`)}" name="${xml(r.eval)}" time="${time(ms)}">`);
      if (!r.passed) {
        const why =
          r.error ??
          r.assertions
            .filter((a) => a.status !== 'pass')
            .map((a) => `${a.kind}: ${a.detail}`)
            .join('; ');
        lines.push(
          `      <failure message="${xml(`pass rate ${pct(r.passRate)} below threshold ${pct(r.threshold)}`)}">${xml(why || 'no trial passed')}</failure>`,
        );
      }
      lines.push(
        `      <system-out>${xml(`trials ${r.trials}, pass rate ${pct(r.passRate)}, baseline ${pct(r.baselinePassRate)}, triggered ${pct(r.triggeredRate)}`)}</system-out>`,
      );
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

function xml(s: string): string {
  // XML 1.0 cannot carry most control characters at all, escaped or not.
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The effect of the skill, e.g. `+40% [+2%, +71%]`. */
export function formatDelta(r: Pick<EvalResult, 'delta'>): string {
  if (!r.delta) return '—';
  const s = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.round(Math.abs(x) * 100)}%`;
  return r.delta.interval
    ? `${s(r.delta.value)} [${s(r.delta.interval.low)}, ${s(r.delta.interval.high)}]`
    : s(r.delta.value);
}

/** Human output: one table per skill, then each failing eval's reasons. */
export function evalHuman(results: readonly EvalResult[]): string {
  const bySkill = new Map<string, EvalResult[]>();
  for (const r of results)
    bySkill.set(`${r.skill}@${r.version}`, [...(bySkill.get(`${r.skill}@${r.version}`) ?? []), r]);
  const out: string[] = [];
  for (const [skill, rs] of bySkill) {
    const rows = [
      ['eval', 'runner', 'trials', 'pass rate', 'baseline', 'effect', 'triggered', ''],
      ...rs.map((r) => [
        r.eval,
        r.runner,
        String(r.trials),
        `${pct(r.passRate)} (≥ ${pct(r.threshold)})`,
        pct(r.baselinePassRate),
        formatDelta(r),
        r.trigger ? `P ${pct(r.trigger.precision)} R ${pct(r.trigger.recall)}` : pct(r.triggeredRate),
        r.passed ? '✓' : '✗',
      ]),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    out.push(skill);
    for (const row of rows) out.push(`  ${row.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd());
    for (const r of rs) {
      const u = totalUsage(r.trialResults);
      if (u) out.push(`  tokens ${r.eval} (${r.runner}): ${usageTotalText(u)}`);
    }
    for (const r of rs.filter((x) => !x.passed)) {
      if (r.error) out.push(`  ✗ ${r.eval} (${r.runner}): ${r.error}`);
      for (const a of r.assertions.filter((x) => x.status !== 'pass'))
        out.push(`  ✗ ${r.eval} (${r.runner}) ${a.kind}${a.status === 'unknown' ? ' [unknown]' : ''}: ${a.detail}`);
      const incomplete = r.trialResults.filter((t) => t.outcome !== 'completed');
      for (const t of incomplete.slice(0, 3))
        out.push(
          `  ✗ ${r.eval} (${r.runner}) ${t.baseline ? 'baseline ' : ''}trial ${t.index + 1}: ${t.outcome}${t.message ? ` — ${t.message}` : ''}`,
        );
    }
    out.push('');
  }
  const all = totalUsage(results.flatMap((r) => r.trialResults));
  if (all) out.push(`tokens in all: ${usageTotalText(all)}`, '');
  return out.join('\n');
}
