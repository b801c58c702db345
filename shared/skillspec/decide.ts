/**
 * The decision engine: rules in file order against the raw input text, the effect
 * algebra, and the default route by rank. Pure and allocation-light, so the editor's
 * playground can call it on every keystroke.
 */
import {
  compareKeys,
  type ExecutionPlan,
  type Predicate,
  type Rule,
  type SkillSpec,
  type TraceEventKind,
  type YamlValue,
} from './model';

export type SelectionBasis = 'rule_prefer' | 'route_order_default' | 'default_route_order';

export interface RouteSelection {
  route: string;
  basis: SelectionBasis;
  rule_id: string | null;
  reason: string | null;
}

export interface MatchedRule {
  id: string;
  reason: string | null;
}

/** Field order is the JSON order `decide --json` prints. */
export interface Decision {
  input: string;
  route: string | null;
  route_selection: RouteSelection | null;
  route_order: string[];
  execution_plan: ExecutionPlan | null;
  /** The selected route's phase ids (empty without a plan); not in the reference's output. */
  plan_phases: string[];
  forbid: string[];
  allow: Record<string, YamlValue>;
  elicit: string[];
  after_success: string[];
  matched_rules: MatchedRule[];
  reason: string | null;
}

export type DecisionEvent =
  | { event: 'input_received'; input: string }
  | { event: 'spec_loaded'; skill_id: string; schema: string }
  | { event: 'rule_evaluated'; rule_id: string; matched: boolean }
  | { event: 'rule_matched'; rule_id: string; reason: string | null }
  | { event: 'route_selected'; route: string; basis: SelectionBasis; rule_id: string | null; reason: string | null }
  | { event: 'route_order_set'; route_order: string[] }
  | { event: 'forbid_added'; forbid: string[] }
  | { event: 'allow_added'; allow: Record<string, YamlValue> }
  | { event: 'elicitation_requested'; elicit: string[] }
  | { event: 'after_success_scheduled'; after_success: string[] }
  | {
      event: 'outcome_recorded';
      route: string | null;
      route_selection: RouteSelection | null;
      matched_rules: string[];
    };

export interface DecisionWithEvents {
  decision: Decision;
  events: DecisionEvent[];
}

export const DEFAULT_ORDER_REASON = 'selected first route by rank/default order';

// --- phrase matching ----------------------------------------------------------------

/** ASCII letters, digits and `_`; everything else (hyphen, dot, space, non-ASCII) is a boundary. */
function isIdentChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/**
 * A bounded occurrence of `phrase` in `input` (both already lower-cased). After an
 * unbounded hit the scan resumes at that hit's end, as the reference's does, so
 * overlapping candidates are skipped.
 */
function boundedContains(input: string, phrase: string): boolean {
  let from = 0;
  for (;;) {
    const start = input.indexOf(phrase, from);
    if (start === -1) return false;
    const end = start + phrase.length;
    const before = start > 0 ? input.charCodeAt(start - 1) : -1;
    const after = end < input.length ? input.charCodeAt(end) : -1;
    if (!(before !== -1 && isIdentChar(before)) && !(after !== -1 && isIdentChar(after))) return true;
    from = end;
    if (from >= input.length) return false;
  }
}

/** `needle` (lower-cased, trimmed) or its naive plural (+s unless it ends in s), bounded. */
function containsNeedle(input: string, needle: CompiledNeedle): boolean {
  if (needle.phrase === '') return false;
  return boundedContains(input, needle.phrase) || (needle.plural !== null && boundedContains(input, needle.plural));
}

/** Does `phrase` occur in `input` the way `user_says_any` means it? */
export function containsPhrase(input: string, phrase: string): boolean {
  return containsNeedle(input.toLowerCase(), compileNeedle(phrase));
}

interface CompiledNeedle {
  phrase: string;
  plural: string | null;
}

function compileNeedle(raw: string): CompiledNeedle {
  const phrase = raw.toLowerCase().trim();
  return { phrase, plural: phrase.endsWith('s') ? null : `${phrase}s` };
}

const needles = (words: readonly string[]): CompiledNeedle[] => words.map(compileNeedle);

export const HEURISTIC_KEYWORDS = {
  task_recurrence_likely: [
    'daily',
    'weekly',
    'monthly',
    'every morning',
    'every day',
    'every week',
    'every month',
    'again',
    'recurring',
  ],
  domain_object_task: [
    'alert',
    'ticket',
    'issue',
    'calendar',
    'email',
    'crm',
    'repo',
    'pull request',
    'dashboard',
    'invoice',
    'customer',
    'incident',
  ],
  command_likely_long_running: [
    'test',
    'build',
    'release',
    'deploy',
    'server',
    'watch',
    'tail',
    'monitor',
    'background process',
    'tracked background',
    'in the background',
  ],
  interactive_prompt_likely: ['login', 'auth', 'mfa', 'otp', 'password', 'prompt'],
} as const;

type Heuristic = keyof typeof HEURISTIC_KEYWORDS;
// Evaluated in this order, as the reference does (long-running before interactive).
const HEURISTICS: readonly Heuristic[] = [
  'task_recurrence_likely',
  'domain_object_task',
  'command_likely_long_running',
  'interactive_prompt_likely',
];
const HEURISTIC_NEEDLES: Record<Heuristic, CompiledNeedle[]> = {
  task_recurrence_likely: needles(HEURISTIC_KEYWORDS.task_recurrence_likely),
  domain_object_task: needles(HEURISTIC_KEYWORDS.domain_object_task),
  command_likely_long_running: needles(HEURISTIC_KEYWORDS.command_likely_long_running),
  interactive_prompt_likely: needles(HEURISTIC_KEYWORDS.interactive_prompt_likely),
};

/** The fixed keyword heuristic behind a boolean predicate, on lower-cased input. */
export function heuristic(name: Heuristic, normalizedInput: string): boolean {
  return HEURISTIC_NEEDLES[name].some((n) => containsNeedle(normalizedInput, n));
}

// --- predicates -----------------------------------------------------------------------

interface CompiledPredicate {
  any: CompiledNeedle[];
  groups: CompiledNeedle[][];
  flags: Array<[Heuristic, boolean]>;
}

function compilePredicate(p: Predicate): CompiledPredicate {
  const flags: Array<[Heuristic, boolean]> = [];
  for (const h of HEURISTICS) {
    const v = p[h];
    if (v !== null) flags.push([h, v]);
  }
  return { any: needles(p.user_says_any), groups: p.user_says_all_groups.map(needles), flags };
}

function matchesCompiled(p: CompiledPredicate, normalized: string): boolean {
  let conditions = false;
  if (p.any.length > 0) {
    conditions = true;
    if (!p.any.some((n) => containsNeedle(normalized, n))) return false;
  }
  if (p.groups.length > 0) {
    conditions = true;
    for (const g of p.groups) if (g.length === 0 || !g.some((n) => containsNeedle(normalized, n))) return false;
  }
  for (const [h, want] of p.flags) {
    conditions = true;
    if (heuristic(h, normalized) !== want) return false;
  }
  return conditions;
}

/** Whether a predicate matches `input`; one with no conditions never does. */
export function matchesPredicate(p: Predicate, input: string): boolean {
  return matchesCompiled(compilePredicate(p), input.toLowerCase());
}

// --- the engine ----------------------------------------------------------------------

interface Compiled {
  rules: Array<{ rule: Rule; when: CompiledPredicate }>;
  defaultOrder: string[];
  /** What the compiled form was built from, to notice a spec edited in place. */
  ruleList: readonly Rule[];
  routeList: SkillSpec['routes'];
  ranks: string;
}

const compiledCache = new WeakMap<SkillSpec, Compiled>();

/**
 * Rules compiled once per spec (needles lower-cased and trimmed, default order sorted).
 * A spec is meant to be treated as immutable — re-read it after an edit — but replacing
 * its rule or route lists, or a rule object or a rank, is noticed and recompiled.
 */
function compiled(spec: SkillSpec): Compiled {
  let c = compiledCache.get(spec);
  if (
    c &&
    (c.ruleList !== spec.rules ||
      c.routeList !== spec.routes ||
      c.rules.length !== spec.rules.length ||
      c.rules.some((r, i) => r.rule !== spec.rules[i] || r.rule.when !== spec.rules[i]!.when) ||
      c.ranks !== rankKey(spec))
  ) {
    c = undefined;
  }
  if (!c) {
    // Stable sort by rank; an absent rank sorts after every present one.
    const ranked = spec.routes.map((r, i) => ({ id: r.id, rank: r.rank, i }));
    ranked.sort((a, b) => {
      if (a.rank === null || b.rank === null) return a.rank === b.rank ? a.i - b.i : a.rank === null ? 1 : -1;
      return a.rank - b.rank || a.i - b.i;
    });
    c = {
      rules: spec.rules.map((rule) => ({ rule, when: compilePredicate(rule.when) })),
      defaultOrder: ranked.map((r) => r.id),
      ruleList: spec.rules,
      routeList: spec.routes,
      ranks: rankKey(spec),
    };
    compiledCache.set(spec, c);
  }
  return c;
}

function rankKey(spec: SkillSpec): string {
  let k = '';
  for (const r of spec.routes) k += `${r.id}\u0000${r.rank ?? ''}\u0000`;
  return k;
}

/** Route ids stably sorted by rank, unranked last. */
export function defaultRouteOrder(spec: SkillSpec): string[] {
  return [...compiled(spec).defaultOrder];
}

export function decide(spec: SkillSpec, input: string): Decision {
  return run(spec, input, null).decision;
}

export function decideWithEvents(spec: SkillSpec, input: string): DecisionWithEvents {
  const events: DecisionEvent[] = [];
  return { decision: run(spec, input, events).decision, events };
}

function run(spec: SkillSpec, input: string, events: DecisionEvent[] | null): { decision: Decision } {
  const c = compiled(spec);
  const normalized = input.toLowerCase();
  let route: string | null = null;
  let selection: RouteSelection | null = null;
  let routeOrder = c.defaultOrder;
  let orderSource: { rule_id: string; reason: string | null } | null = null;
  const forbid: string[] = [];
  const elicit: string[] = [];
  const afterSuccess: string[] = [];
  const allow = new Map<string, YamlValue>();
  const matched: MatchedRule[] = [];
  let reason: string | null = null;

  events?.push({ event: 'input_received', input }, { event: 'spec_loaded', skill_id: spec.id, schema: spec.schema });
  for (const { rule, when } of c.rules) {
    const hit = matchesCompiled(when, normalized);
    events?.push({ event: 'rule_evaluated', rule_id: rule.id, matched: hit });
    if (!hit) continue;
    events?.push({ event: 'rule_matched', rule_id: rule.id, reason: rule.reason });
    if (rule.prefer !== null) {
      route = rule.prefer;
      selection = { route: rule.prefer, basis: 'rule_prefer', rule_id: rule.id, reason: rule.reason };
      events?.push({ event: 'route_selected', ...selection });
    }
    if (rule.route_order.length > 0) {
      routeOrder = rule.route_order;
      orderSource = { rule_id: rule.id, reason: rule.reason };
      events?.push({ event: 'route_order_set', route_order: [...rule.route_order] });
    }
    const allowKeys = Object.keys(rule.allow);
    if (events) {
      if (rule.forbid.length) events.push({ event: 'forbid_added', forbid: [...rule.forbid] });
      if (allowKeys.length) events.push({ event: 'allow_added', allow: sortedObject(rule.allow) });
      if (rule.elicit.length) events.push({ event: 'elicitation_requested', elicit: [...rule.elicit] });
      if (rule.after_success.length)
        events.push({ event: 'after_success_scheduled', after_success: [...rule.after_success] });
    }
    forbid.push(...rule.forbid);
    elicit.push(...rule.elicit);
    afterSuccess.push(...rule.after_success);
    for (const k of allowKeys) allow.set(k, rule.allow[k]!);
    if (rule.reason !== null) reason = rule.reason;
    matched.push({ id: rule.id, reason: rule.reason });
  }

  if (route === null && routeOrder.length > 0) {
    route = routeOrder[0]!;
    selection = orderSource
      ? { route, basis: 'route_order_default', rule_id: orderSource.rule_id, reason: orderSource.reason }
      : { route, basis: 'default_route_order', rule_id: null, reason: DEFAULT_ORDER_REASON };
    events?.push({ event: 'route_selected', ...selection });
  }

  const plan = route === null ? null : (spec.routes.find((r) => r.id === route)?.execution_plan ?? null);
  const decision: Decision = {
    input,
    route,
    route_selection: selection,
    route_order: [...routeOrder],
    execution_plan: plan,
    plan_phases: plan ? plan.phases.map((p) => p.id) : [],
    forbid: dedupe(forbid),
    allow: sortedObject(Object.fromEntries(allow)),
    elicit: dedupe(elicit),
    after_success: dedupe(afterSuccess),
    matched_rules: matched,
    reason,
  };
  events?.push({
    event: 'outcome_recorded',
    route,
    route_selection: selection ? { ...selection } : null,
    matched_rules: matched.map((m) => m.id),
  });
  return { decision };
}

function dedupe(xs: string[]): string[] {
  return xs.length < 2 ? xs : [...new Set(xs)];
}

function sortedObject(m: Record<string, YamlValue>): Record<string, YamlValue> {
  const out: Record<string, YamlValue> = Object.create(null);
  for (const k of Object.keys(m).sort(compareKeys)) out[k] = m[k]!;
  return out;
}

export const ALL_TRACE_EVENT_KINDS: readonly TraceEventKind[] = [
  'input_received',
  'spec_loaded',
  'rule_evaluated',
  'rule_matched',
  'route_selected',
  'route_order_set',
  'forbid_added',
  'allow_added',
  'elicitation_requested',
  'after_success_scheduled',
  'outcome_recorded',
];
