/** The scenario runner: assertion families, failure strings, the printed report. */
import { describe, expect, it } from 'vitest';
import { debugSet, debugStr } from '../../shared/skillspec/errors';
import { formatTestRun, runScenarioTests } from '../../shared/skillspec/scenario';
import { doc, load } from './helpers';

const base = `routes:
  - {id: a, label: A}
  - {id: b, label: B}
  - id: p
    label: P
    execution_plan:
      phases:
        - {id: one, owner_skill: s, jumps: [{when: blocked, to_phase: two}]}
        - {id: two, owner_skill: s}
elicitations:
  q: {question: Which?, choices: [{id: x, label: X}]}
closures: {close1: {}, close2: {}}
rules:
  - id: r1
    when: {user_says_any: [go]}
    prefer: b
    forbid: [f1, f2]
    elicit: [q]
    after_success: [close1]
  - id: r2
    when: {user_says_any: [go]}
    after_success: [close2]
  - id: r3
    when: {user_says_any: [never]}
  - id: plan
    when: {user_says_any: [plan]}
    prefer: p
`;

describe('assertion semantics', () => {
  it('passes inclusion, exact-set (order and duplicates ignored) and absence assertions', () => {
    const spec = load(
      doc(`${base}tests:
  - name: all pass
    input: go
    expect:
      route: b
      route_order: [a, b, p]
      forbid: [f2]
      forbid_exact: [f2, f1, f1]
      not_forbid: [f3]
      elicit_exact: [q]
      after_success: [close2]
      matched_rules: [r1]
      matched_rules_exact: [r2, r1]
      not_matched_rules: [r3]
  - name: empty exact means none
    input: nothing here
    expect:
      route: a
      forbid_exact: []
      elicit_exact: []
      matched_rules_exact: []
  - name: plans
    input: plan
    expect:
      plan_phases: [one, two]
      plan_jumps: ["one:blocked->two"]
`),
    );
    const run = runScenarioTests(spec);
    expect(run.failed.map((f) => f.failures)).toEqual([]);
    expect(formatTestRun(run)).toBe('skillspec test: 3/3 passed\n');
  });

  it('reports every failure of a test, in the fixed order, with Debug-quoted values', () => {
    const spec = load(
      doc(`${base}tests:
  - name: t
    input: go
    expect:
      matched_rules: [r3]
      elicit_exact: []
      after_success_exact: [close2]
      not_forbid: [f1]
      route: a
      route_order: [b, a, p]
      plan_phases: [one]
      plan_jumps: ["one:x->two"]
  - name: ok
    input: go
    expect: {route: b}
`),
    );
    const run = runScenarioTests(spec);
    expect(formatTestRun(run)).toBe(
      [
        'skillspec test: 1/2 passed',
        'FAIL t',
        '  - expected route a, got b',
        '  - expected route_order ["b", "a", "p"], got ["a", "b", "p"]',
        '  - expected plan_phases ["one"], got []',
        '  - expected plan_jump "one:x->two", got []',
        '  - expected forbid not to contain "f1"',
        '  - expected after_success_exact {"close2"}, got {"close1", "close2"}',
        '  - expected elicit_exact {}, got {"q"}',
        '  - expected matched_rule "r3"',
        '',
      ].join('\n'),
    );
  });

  it('uses the plural form for the negative matched-rules message and names a missing route <none>', () => {
    const spec = load(
      doc(
        'rules:\n  - {id: r, when: {user_says_any: [x]}}\ntests:\n  - {name: t, input: x, expect: {not_matched_rules: [r], matched_rules_exact: []}}\n',
      ),
    );
    expect(runScenarioTests(spec).failed[0]!.failures).toEqual([
      'expected matched_rules_exact {}, got {"r"}',
      'expected matched_rules not to contain "r"',
    ]);
    const noRoutes = load(doc('routes:\n  - {id: a, label: A}\ntests:\n  - {name: t, input: x, expect: {route: a}}\n'));
    noRoutes.routes = [];
    expect(runScenarioTests(noRoutes).failed[0]!.failures).toEqual(['expected route a, got <none>']);
  });

  it('prints 0/0 for a spec without tests', () => {
    expect(formatTestRun(runScenarioTests(load(doc())))).toBe('skillspec test: 0/0 passed\n');
  });
});

describe('Rust Debug formatting', () => {
  it('quotes and escapes like {:?}', () => {
    expect(debugStr('it\'s "x"\\\n\t\r\0')).toBe('"it\'s \\"x\\"\\\\\\n\\t\\r\\0"');
    expect(debugStr('é — ok')).toBe('"é — ok"');
    expect(debugStr('\u0007\u200b')).toBe('"\\u{7}\\u{200b}"');
    expect(debugSet(['b', 'a', 'b'])).toBe('{"a", "b"}');
    expect(debugSet([])).toBe('{}');
  });
});
