/** How the playground words a trace and a scenario test's assertions (renderer/src/views/playground/decision-text). */
import { describe, expect, it } from 'vitest';
import { actual, eventDetail, stated } from '../../renderer/src/views/playground/decision-text';
import type { Decision } from '../../shared/skillspec/decide';
import type { Expectation } from '../../shared/skillspec/model';

const NOTHING: Expectation = {
  route: null,
  route_order: [],
  plan_phases: [],
  plan_jumps: [],
  forbid: [],
  forbid_exact: null,
  not_forbid: [],
  elicit: [],
  elicit_exact: null,
  not_elicit: [],
  after_success: [],
  after_success_exact: null,
  not_after_success: [],
  matched_rules: [],
  matched_rules_exact: null,
  not_matched_rules: [],
};

const DECISION: Decision = {
  input: 'ship it',
  route: 'release',
  route_selection: null,
  route_order: ['release', 'hotfix'],
  execution_plan: null,
  plan_phases: [],
  forbid: ['force_push'],
  allow: { tag: true },
  elicit: [],
  after_success: ['announce'],
  matched_rules: [{ id: 'ship_now', reason: null }],
  reason: null,
};

describe('eventDetail', () => {
  it('words each trace event on one line', () => {
    expect(eventDetail({ event: 'input_received', input: 'a "b"' })).toBe('"a \\"b\\""');
    expect(eventDetail({ event: 'spec_loaded', skill_id: 'triage', schema: 'skillspec/v0' })).toBe(
      'triage (skillspec/v0)',
    );
    expect(eventDetail({ event: 'rule_evaluated', rule_id: 'r1', matched: false })).toBe('r1: no match');
    expect(eventDetail({ event: 'rule_evaluated', rule_id: 'r1', matched: true })).toBe('r1: matched');
    expect(eventDetail({ event: 'rule_matched', rule_id: 'r1', reason: 'broken build' })).toBe('r1 — broken build');
    expect(eventDetail({ event: 'rule_matched', rule_id: 'r1', reason: null })).toBe('r1');
    expect(
      eventDetail({ event: 'route_selected', route: 'hotfix', basis: 'rule_prefer', rule_id: 'r1', reason: null }),
    ).toBe('hotfix (rule_prefer, r1)');
    expect(eventDetail({ event: 'route_order_set', route_order: ['a', 'b'] })).toBe('a → b');
    expect(eventDetail({ event: 'allow_added', allow: { tag: true, n: 'x' } })).toBe('tag=true, n="x"');
    expect(eventDetail({ event: 'outcome_recorded', route: null, route_selection: null, matched_rules: [] })).toBe(
      'no route; matched nothing',
    );
  });
});

describe('stated and actual', () => {
  it('lists only what a test asserts, each with the decision’s value in the same notation', () => {
    expect(stated(NOTHING)).toEqual([]);
    const x: Expectation = {
      ...NOTHING,
      route: 'hotfix',
      forbid: ['force_push'],
      not_forbid: ['tag'],
      matched_rules_exact: ['ship_now'],
    };
    const rows = stated(x);
    expect(rows.map(([k, want]) => [k, want])).toEqual([
      ['route', 'hotfix'],
      ['forbid', 'includes [force_push]'],
      ['not_forbid', '[tag]'],
      ['matched_rules_exact', '[ship_now]'],
    ]);
    expect(rows.map(([, , key]) => actual(DECISION, key))).toEqual([
      'release',
      '[force_push]',
      '[force_push]',
      '[ship_now]',
    ]);
    expect(actual({ ...DECISION, route: null }, 'route')).toBe('none');
    expect(actual(DECISION, 'allow')).toBe('{"tag":true}');
  });
});
