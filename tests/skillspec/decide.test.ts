/** The decision engine: phrase matching, heuristics, the effect algebra, default routes, events. */
import { describe, expect, it } from 'vitest';
import {
  containsPhrase,
  decide,
  decideWithEvents,
  heuristic,
  matchesPredicate,
  DEFAULT_ORDER_REASON,
} from '../../shared/skillspec/decide';
import type { Predicate } from '../../shared/skillspec/model';
import { doc, load } from './helpers';

const pred = (p: Partial<Predicate>): Predicate => ({
  user_says_any: [],
  user_says_all_groups: [],
  task_recurrence_likely: null,
  domain_object_task: null,
  interactive_prompt_likely: null,
  command_likely_long_running: null,
  ...p,
});

describe('user_says_any phrase matching', () => {
  it.each([
    ['local', 'Run LOCAL', true],
    ['local', 'locals here', true],
    ['local', 'localhost', false],
    ['local', 'local-task', true],
    ['local', 'local_task', false],
    ['local', 'a.local.b', true],
    ['browses', 'browse it', false],
    ['pull request', 'open pull requests', true],
    ['pull request', 'pull  request', false],
    ['pull request', 'pull\nrequest', false],
    ['  spaced  ', 'spaced out', true],
    ['', 'anything', false],
    ['   ', 'anything', false],
    ['c++', 'use c++ now', true],
    ['c++', 'c++x', false],
    ['UPPER', 'upper', true],
    ['café', 'Café au lait', true],
    ['v1.2', 'v1.2 rel', true],
    ['v1.2', 'v1.23', false],
    ['v1.2', 'v1.2s', true],
    ['watch', 'watches', false],
    ['test', 'retest', false],
    ['x', 'éxé', true],
  ])('%j in %j → %s', (needle, input, want) => {
    expect(containsPhrase(input, needle)).toBe(want);
  });

  it('resumes after a failed occurrence at its end, so an overlapping match is missed', () => {
    // "ab ab" occurs bounded at offset 4 of "xab ab ab", but the scan skips past it.
    expect(containsPhrase('xab ab ab', 'ab ab')).toBe(false);
    expect(containsPhrase('ab ab ab', 'ab ab')).toBe(true);
  });
});

describe('boolean heuristics', () => {
  it.each([
    ['run tests', 'command_likely_long_running', true],
    ['testing', 'command_likely_long_running', false],
    ['open pull requests', 'domain_object_task', true],
    ['every day', 'task_recurrence_likely', true],
    ['every days', 'task_recurrence_likely', true],
    ['zeta login', 'interactive_prompt_likely', true],
    ['authentication', 'interactive_prompt_likely', false],
    ['deploy it in the background', 'command_likely_long_running', true],
  ] as const)('%j: %s is %s', (input, h, want) => {
    expect(heuristic(h, input.toLowerCase())).toBe(want);
  });

  it('matches a false-valued predicate whenever no keyword appears', () => {
    expect(matchesPredicate(pred({ task_recurrence_likely: false }), 'testing')).toBe(true);
    expect(matchesPredicate(pred({ task_recurrence_likely: false }), 'every day')).toBe(false);
  });
});

describe('predicate composition', () => {
  it('never matches an empty predicate, or one with only empty lists', () => {
    expect(matchesPredicate(pred({}), 'anything at all')).toBe(false);
    expect(matchesPredicate(pred({ user_says_any: [], user_says_all_groups: [] }), 'x')).toBe(false);
  });

  it('ANDs the groups of user_says_all_groups and ORs inside each; an empty group fails', () => {
    const p = pred({ user_says_all_groups: [['alpha', 'beta'], ['gamma']] });
    expect(matchesPredicate(p, 'alpha gamma')).toBe(true);
    expect(matchesPredicate(p, 'gamma beta x')).toBe(true);
    expect(matchesPredicate(p, 'beta')).toBe(false);
    expect(matchesPredicate(pred({ user_says_all_groups: [['alpha'], []] }), 'alpha')).toBe(false);
  });

  it('ANDs every present condition', () => {
    const p = pred({ user_says_any: ['zeta'], interactive_prompt_likely: true });
    expect(matchesPredicate(p, 'zeta login')).toBe(true);
    expect(matchesPredicate(p, 'zeta only')).toBe(false);
    expect(matchesPredicate(p, 'login only')).toBe(false);
  });
});

describe('default route order', () => {
  const spec = load(
    doc(
      'routes:\n  - {id: z, label: Z}\n  - {id: b, label: B, rank: 5}\n  - {id: a, label: A, rank: 5}\n  - {id: c, label: C, rank: -1}\n',
    ),
  );

  it('sorts stably by rank, unranked last', () => {
    expect(decide(spec, 'nothing matches').route_order).toEqual(['c', 'b', 'a', 'z']);
  });

  it('picks the first route with basis default_route_order and the fixed reason, leaving decision.reason null', () => {
    const d = decide(spec, 'nothing');
    expect(d.route).toBe('c');
    expect(d.route_selection).toEqual({
      route: 'c',
      basis: 'default_route_order',
      rule_id: null,
      reason: DEFAULT_ORDER_REASON,
    });
    expect(d.reason).toBeNull();
  });

  it('selects nothing when there are no routes', () => {
    const empty = load(doc());
    const { decision, events } = decideWithEvents(empty, 'x');
    expect(decision.route).toBeNull();
    expect(decision.route_selection).toBeNull();
    expect(events.map((e) => e.event)).toEqual(['input_received', 'spec_loaded', 'outcome_recorded']);
  });
});

describe('the effect algebra', () => {
  const spec = load(
    doc(`routes:
  - {id: a, label: A, rank: 1}
  - {id: b, label: B, rank: 2}
  - {id: c, label: C, rank: 3}
elicitations:
  q: {question: Which?, choices: [{id: one, label: One}]}
closures: {close1: {}, close2: {}}
rules:
  - id: r1
    when: {user_says_any: [go]}
    prefer: b
    forbid: [f1, f2]
    allow: {k1: {nested: [1, 2]}, k2: v2}
    elicit: [q]
    after_success: [close1]
    reason: first
  - id: r2
    when: {user_says_any: [go]}
    route_order: [c, a]
    forbid: [f2, f3]
    allow: {k1: replaced}
    elicit: [q]
    after_success: [close2, close1]
  - id: never
    prefer: a
  - id: also_never
    when: {}
    prefer: a
`),
  );

  it('applies every matching rule in file order', () => {
    const d = decide(spec, 'go now');
    expect(d.route).toBe('b');
    expect(d.route_selection).toEqual({ route: 'b', basis: 'rule_prefer', rule_id: 'r1', reason: 'first' });
    expect(d.route_order).toEqual(['c', 'a']);
    expect(d.forbid).toEqual(['f1', 'f2', 'f3']);
    expect(d.allow).toEqual({ k1: 'replaced', k2: 'v2' });
    expect(d.elicit).toEqual(['q']);
    expect(d.after_success).toEqual(['close1', 'close2']);
    expect(d.matched_rules).toEqual([
      { id: 'r1', reason: 'first' },
      { id: 'r2', reason: null },
    ]);
    expect(d.reason).toBe('first');
  });

  it('prints the decision JSON in the reference order, plus plan_phases', () => {
    expect(Object.keys(decide(spec, 'go'))).toEqual([
      'input',
      'route',
      'route_selection',
      'route_order',
      'execution_plan',
      'plan_phases',
      'forbid',
      'allow',
      'elicit',
      'after_success',
      'matched_rules',
      'reason',
    ]);
  });

  it('emits events in the reference sequence with raw rule payloads', () => {
    const { events } = decideWithEvents(spec, 'go');
    expect(events.map((e) => e.event)).toEqual([
      'input_received',
      'spec_loaded',
      'rule_evaluated',
      'rule_matched',
      'route_selected',
      'forbid_added',
      'allow_added',
      'elicitation_requested',
      'after_success_scheduled',
      'rule_evaluated',
      'rule_matched',
      'route_order_set',
      'forbid_added',
      'allow_added',
      'elicitation_requested',
      'after_success_scheduled',
      'rule_evaluated',
      'rule_evaluated',
      'outcome_recorded',
    ]);
    expect(events[12]).toEqual({ event: 'forbid_added', forbid: ['f2', 'f3'] });
    expect(events.at(-1)).toEqual({
      event: 'outcome_recorded',
      route: 'b',
      route_selection: { route: 'b', basis: 'rule_prefer', rule_id: 'r1', reason: 'first' },
      matched_rules: ['r1', 'r2'],
    });
  });

  it("takes the first route of a replaced order with basis route_order_default and that rule's reason", () => {
    const s = load(
      doc(
        'routes:\n  - {id: a, label: A}\n  - {id: b, label: B}\nrules:\n  - {id: o1, when: {user_says_any: [x]}, route_order: [a, b], reason: one}\n  - {id: o2, when: {user_says_any: [x]}, route_order: [b, a]}\n  - {id: why, when: {user_says_any: [x]}, reason: later}\n',
      ),
    );
    const d = decide(s, 'x');
    expect(d.route).toBe('b');
    expect(d.route_selection).toEqual({ route: 'b', basis: 'route_order_default', rule_id: 'o2', reason: null });
    expect(d.reason).toBe('later');
  });

  it('lets the last matching prefer win, even after a route_order', () => {
    const s = load(
      doc(
        'routes:\n  - {id: a, label: A}\n  - {id: b, label: B}\nrules:\n  - {id: p1, when: {user_says_any: [x]}, prefer: a}\n  - {id: p2, when: {user_says_any: [x]}, prefer: b}\n  - {id: o, when: {user_says_any: [x]}, route_order: [a, b]}\n',
      ),
    );
    const d = decide(s, 'x');
    expect(d.route).toBe('b');
    expect(d.route_order).toEqual(['a', 'b']);
  });

  it("copies the selected route's execution plan and its phase ids", () => {
    const s = load(
      doc(
        'routes:\n  - id: a\n    label: A\n    execution_plan:\n      phases:\n        - {id: p1, owner_skill: s, jumps: [{when: w, to_phase: p2}]}\n        - {id: p2, owner_skill: s}\n',
      ),
    );
    const d = decide(s, 'x');
    expect(d.plan_phases).toEqual(['p1', 'p2']);
    expect(d.execution_plan!.phases[0]).toEqual({
      id: 'p1',
      owner_skill: 's',
      route: null,
      description: null,
      requires: [],
      checks: [],
      forbid: [],
      handoff: null,
      jumps: [{ when: 'w', to_phase: 'p2', reason: null }],
      tool_boundary: null,
    });
  });

  it('is fast enough for a live playground', () => {
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) decide(spec, `go number ${i} with some more words in it`);
    expect((performance.now() - t0) / 2000).toBeLessThan(0.2);
  });
});

describe('a spec edited in place', () => {
  it('notices replaced rules and changed ranks', () => {
    const spec = load(
      doc(
        'routes:\n  - {id: a, label: A, rank: 1}\n  - {id: b, label: B, rank: 2}\nrules:\n  - {id: r, when: {user_says_any: [x]}, prefer: b}\n',
      ),
    );
    expect(decide(spec, 'x').route).toBe('b');
    spec.rules = [{ ...spec.rules[0]!, when: { ...spec.rules[0]!.when, user_says_any: ['y'] } }];
    expect(decide(spec, 'x').route).toBe('a');
    spec.routes[1]!.rank = 0;
    expect(decide(spec, 'nothing').route).toBe('b');
  });
});
