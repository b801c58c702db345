/**
 * Scenario tests: each test decides its input and compares the decision with `expect`.
 * Every assertion is checked (no short-circuit); failures are listed in a fixed order.
 */
import { decide, type Decision } from './decide';
import { debugList, debugSet, debugStr } from './errors';
import type { Expectation, SkillSpec } from './model';

export interface TestCaseResult {
  name: string;
  input: string;
  failures: string[];
  decision: Decision;
}

export interface TestRun {
  total: number;
  passed: TestCaseResult[];
  failed: TestCaseResult[];
  /** Every test in file order. */
  results: TestCaseResult[];
}

export function runScenarioTests(spec: SkillSpec): TestRun {
  const results = spec.tests.map((t): TestCaseResult => {
    const decision = decide(spec, t.input);
    return { name: t.name, input: t.input, failures: compareExpectation(decision, t.expect), decision };
  });
  return {
    total: results.length,
    passed: results.filter((r) => r.failures.length === 0),
    failed: results.filter((r) => r.failures.length > 0),
    results,
  };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  if (x.size !== y.size) return false;
  for (const v of x) if (!y.has(v)) return false;
  return true;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export function compareExpectation(d: Decision, x: Expectation): string[] {
  const out: string[] = [];
  if (x.route !== null && d.route !== x.route) out.push(`expected route ${x.route}, got ${d.route ?? '<none>'}`);
  if (x.route_order.length > 0 && !sameList(d.route_order, x.route_order)) {
    out.push(`expected route_order ${debugList(x.route_order)}, got ${debugList(d.route_order)}`);
  }
  const phases = d.execution_plan ? d.execution_plan.phases.map((p) => p.id) : [];
  if (x.plan_phases.length > 0 && !sameList(x.plan_phases, phases)) {
    out.push(`expected plan_phases ${debugList(x.plan_phases)}, got ${debugList(phases)}`);
  }
  if (x.plan_jumps.length > 0) {
    const jumps = d.execution_plan
      ? d.execution_plan.phases.flatMap((p) => p.jumps.map((j) => `${p.id}:${j.when}->${j.to_phase}`))
      : [];
    for (const want of x.plan_jumps)
      if (!jumps.includes(want)) out.push(`expected plan_jump ${debugStr(want)}, got ${debugList(jumps)}`);
  }
  family(out, 'forbid', 'forbid', d.forbid, x.forbid, x.forbid_exact, x.not_forbid);
  family(
    out,
    'after_success',
    'after_success',
    d.after_success,
    x.after_success,
    x.after_success_exact,
    x.not_after_success,
  );
  family(out, 'elicit', 'elicit', d.elicit, x.elicit, x.elicit_exact, x.not_elicit);
  const ids = d.matched_rules.map((m) => m.id);
  family(out, 'matched_rule', 'matched_rules', ids, x.matched_rules, x.matched_rules_exact, x.not_matched_rules);
  return out;
}

/** Inclusion, exact set, absence — the three assertion families of one list. */
function family(
  out: string[],
  singular: string,
  plural: string,
  actual: readonly string[],
  incl: readonly string[],
  exact: readonly string[] | null,
  absent: readonly string[],
): void {
  for (const want of incl) if (!actual.includes(want)) out.push(`expected ${singular} ${debugStr(want)}`);
  if (exact !== null && !sameSet(exact, actual))
    out.push(`expected ${plural}_exact ${debugSet(exact)}, got ${debugSet(actual)}`);
  for (const no of absent) if (actual.includes(no)) out.push(`expected ${plural} not to contain ${debugStr(no)}`);
}

/** The text `spec test` prints: a `P/T passed` line, then a FAIL block per failing test. */
export function formatTestRun(run: TestRun): string {
  const lines = [`skillspec test: ${run.passed.length}/${run.total} passed`];
  for (const r of run.failed) {
    lines.push(`FAIL ${r.name}`);
    for (const f of r.failures) lines.push(`  - ${f}`);
  }
  return `${lines.join('\n')}\n`;
}
