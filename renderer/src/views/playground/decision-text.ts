/** Decisions and trace events as the playground words them (pure, so they are unit-tested). */
import type { Decision, DecisionEvent } from '../../../../shared/skillspec/decide';
import type { Expectation } from '../../../../shared/skillspec/model';

/** The one-line detail of a trace event. */
export function eventDetail(e: DecisionEvent): string {
  switch (e.event) {
    case 'input_received':
      return JSON.stringify(e.input);
    case 'spec_loaded':
      return `${e.skill_id} (${e.schema})`;
    case 'rule_evaluated':
      return `${e.rule_id}: ${e.matched ? 'matched' : 'no match'}`;
    case 'rule_matched':
      return `${e.rule_id}${e.reason ? ` — ${e.reason}` : ''}`;
    case 'route_selected':
      return `${e.route} (${e.basis}${e.rule_id ? `, ${e.rule_id}` : ''})`;
    case 'route_order_set':
      return e.route_order.join(' → ');
    case 'forbid_added':
      return e.forbid.join(', ');
    case 'allow_added':
      return Object.entries(e.allow)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(', ');
    case 'elicitation_requested':
      return e.elicit.join(', ');
    case 'after_success_scheduled':
      return e.after_success.join(', ');
    case 'outcome_recorded':
      return `${e.route ?? 'no route'}; matched ${e.matched_rules.length ? e.matched_rules.join(', ') : 'nothing'}`;
  }
}

/** The assertions a test states, as label → expected value (only what it asserts). */
export function stated(x: Expectation): Array<[string, string, keyof Decision | 'matched']> {
  const out: Array<[string, string, keyof Decision | 'matched']> = [];
  const list = (v: readonly string[]) => `[${v.join(', ')}]`;
  if (x.route !== null) out.push(['route', x.route, 'route']);
  if (x.route_order.length) out.push(['route_order', list(x.route_order), 'route_order']);
  if (x.plan_phases.length) out.push(['plan_phases', list(x.plan_phases), 'plan_phases']);
  const fam = (
    name: string,
    key: keyof Decision | 'matched',
    incl: readonly string[],
    exact: readonly string[] | null,
    not: readonly string[],
  ) => {
    if (incl.length) out.push([name, `includes ${list(incl)}`, key]);
    if (exact !== null) out.push([`${name}_exact`, list(exact), key]);
    if (not.length) out.push([`not_${name}`, list(not), key]);
  };
  fam('forbid', 'forbid', x.forbid, x.forbid_exact, x.not_forbid);
  fam('elicit', 'elicit', x.elicit, x.elicit_exact, x.not_elicit);
  fam('after_success', 'after_success', x.after_success, x.after_success_exact, x.not_after_success);
  fam('matched_rules', 'matched', x.matched_rules, x.matched_rules_exact, x.not_matched_rules);
  return out;
}

/** What the decision has for one of `stated`'s keys, in the same notation. */
export function actual(d: Decision, key: keyof Decision | 'matched'): string {
  if (key === 'matched') return `[${d.matched_rules.map((m) => m.id).join(', ')}]`;
  const v = d[key];
  if (v === null) return 'none';
  return Array.isArray(v) ? `[${v.join(', ')}]` : typeof v === 'string' ? v : JSON.stringify(v);
}
