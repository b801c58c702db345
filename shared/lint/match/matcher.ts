import type { Keep, Pattern } from '../safety/patterns';
import type { Hit } from '../types';
import { Automaton } from './automaton';
import { literalsOf, type Literals } from './literals';

/**
 * Many regular expressions over one text, the text read once (SPEC.md D130).
 *
 * Every expression's literals (./literals.ts) go into one automaton. A scan reads the text
 * once and notes which literals occur, and where the start literals begin. Then an
 * expression runs only where it can match: not at all when a literal every match needs is
 * missing; else, when its start literals are distinctive, only at the places where one
 * begins (a sticky copy tried at each, in order, which is how a global search proceeds
 * anyway); else over the whole text as before. The results are those of running each
 * expression alone — the scan only leaves out places where it proves no match can start.
 */
export class Matcher {
  private readonly automaton: Automaton;
  private readonly plans = new Map<RegExp, Plan>();
  /** 1 for the literals whose places are recorded: start literals of sticky plans, and case-checked ones. */
  private readonly track: Uint8Array;

  /**
   * `table`: literals worked out ahead of time (./literals-table.ts), by `literalsKey`; an
   * expression missing from it, or changed since, is analysed here.
   */
  constructor(expressions: readonly RegExp[], table: Readonly<Record<string, Literals>> = {}) {
    const ids = new Map<string, number>();
    // The automaton folds ASCII case, so a string is known by its lower-case spelling.
    const idOf = (s: string): number => {
      const key = s.toLowerCase();
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      return id;
    };
    const tracked: number[] = [];
    for (const re of new Set(expressions)) {
      const lit = Object.hasOwn(table, literalsKey(re)) ? table[literalsKey(re)]! : literalsOf(re);
      const starts = lit.starts.some(weak) ? [] : lit.starts;
      const required = lit.required.filter((set) => !set.some(weak));
      const sticky = starts.length > 0 && !re.unicode ? new RegExp(re.source, `${stripGY(re.flags)}y`) : undefined;
      const startIds = starts.map(idOf);
      if (sticky) tracked.push(...startIds);
      // Without `i`, a string with letters is confirmed in its own case where the scan saw it folded.
      const cased = (s: string) => !re.ignoreCase && s.toLowerCase() !== s.toUpperCase();
      const member = (s: string): Member => {
        const id = idOf(s);
        if (!cased(s)) return { id };
        tracked.push(id);
        return { id, exact: s };
      };
      this.plans.set(re, {
        starts: startIds,
        required: required.map((set) => set.map(member)),
        sticky,
        pure: lit.pure && starts.length > 0 && !starts.some(cased),
      });
    }
    this.automaton = new Automaton([...ids.keys()]);
    this.track = new Uint8Array(ids.size);
    for (const id of tracked) this.track[id] = 1;
  }

  scan(text: string): TextScan {
    const seen = new Uint8Array(this.track.length);
    const hits: number[] = [];
    if (this.track.length > 0) this.automaton.scan(text, seen, this.track, hits);
    return new TextScan(text, this.plans, seen, hits);
  }
}

/** A required literal; `exact`: its spelling, when the expression tells case apart. */
interface Member {
  readonly id: number;
  readonly exact?: string;
}

interface Plan {
  /** Literal ids one of which begins every match; empty when none are known or distinctive. */
  readonly starts: readonly number[];
  /** Sets of literals; every match contains one of each. */
  readonly required: readonly (readonly Member[])[];
  /** The expression without `g`, with `y`: tried at each start place. */
  readonly sticky: RegExp | undefined;
  /** A plain alternation of strings, spelled as the scan folds them: it matches iff a start literal occurs. */
  readonly pure: boolean;
}

/** What one scan of one text found; answers for the expressions the matcher was built with. */
export class TextScan {
  private places: Map<number, number[]> | undefined;
  private readonly tested = new Map<RegExp, boolean>();
  private readonly memos = new Map<object, unknown>();

  constructor(
    readonly text: string,
    private readonly plans: ReadonlyMap<RegExp, Plan>,
    private readonly seen: Uint8Array,
    private readonly hits: readonly number[],
  ) {}

  /** `compute()`, once per scan and `key`: for a result several checks derive from one text. */
  memo<T>(key: object, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }

  /** False only when `re` cannot match anywhere in the text; an unknown expression may. */
  possible(re: RegExp): boolean {
    const plan = this.plans.get(re);
    return plan === undefined || this.admits(plan);
  }

  /** Exactly `re.test(text)` for an expression without `g` or `y`, without reading the text again where it can. */
  test(re: RegExp): boolean {
    let result = this.tested.get(re);
    if (result !== undefined) return result;
    const plan = this.plans.get(re);
    if (plan === undefined || re.global || re.sticky) result = re.test(this.text);
    else if (!this.admits(plan)) result = false;
    else if (plan.pure) result = true;
    else if (plan.sticky) result = this.startPlaces(plan).some((at) => stickyAt(plan.sticky!, this.text, at));
    else result = re.test(this.text);
    this.tested.set(re, result);
    return result;
  }

  /**
   * Every match of every pattern, in pattern order then text order, capped per pattern, judged
   * by `keep` — the same hits as running each pattern's global search over the whole text.
   */
  findAll(patterns: readonly Pattern[], keep: Keep = () => true, cap = 50): Hit[] {
    const hits: Hit[] = [];
    for (const pattern of patterns) {
      if (pattern.needs && !this.test(pattern.needs)) continue;
      let n = 0;
      this.matches(pattern.re, (m) => {
        if (!keep(m[0], this.text, m.index)) return true;
        hits.push({ label: pattern.label, offset: m.index, length: m[0].length, match: m[0] });
        return ++n < cap;
      });
    }
    return hits;
  }

  /**
   * Visits the matches of the global expression `re` in text order, as its global search
   * finds them, until `visit` returns false.
   */
  matches(re: RegExp, visit: (m: RegExpExecArray) => boolean): void {
    const plan = this.plans.get(re);
    if (plan !== undefined && !this.admits(plan)) return;
    if (plan === undefined || !plan.sticky) {
      re.lastIndex = 0;
      for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
        if (m[0].length === 0) re.lastIndex++;
        if (!visit(m)) break;
      }
      return;
    }
    const sticky = plan.sticky;
    let from = 0;
    for (const at of this.startPlaces(plan)) {
      if (at < from) continue;
      sticky.lastIndex = at;
      const m = sticky.exec(this.text);
      if (!m) continue;
      // Where the global search resumes: after the match, one further past an empty one.
      from = at + (m[0].length || 1);
      if (!visit(m)) break;
    }
  }

  private admits(plan: Plan): boolean {
    const { seen } = this;
    if (plan.starts.length > 0 && !anySeen(plan.starts, seen)) return false;
    for (const set of plan.required) if (!set.some((m) => seen[m.id] === 1 && this.spelled(m))) return false;
    return true;
  }

  /** A folded sighting of `m` is one in its own spelling too (always, when case does not matter). */
  private spelled(m: Member): boolean {
    const { exact } = m;
    return exact === undefined || this.placesOf(m.id).some((at) => this.text.startsWith(exact, at));
  }

  private placesOf(id: number): readonly number[] {
    if (!this.places) {
      this.places = new Map();
      for (let k = 0; k < this.hits.length; k += 2) {
        const list = this.places.get(this.hits[k]!);
        if (list) list.push(this.hits[k + 1]!);
        else this.places.set(this.hits[k]!, [this.hits[k + 1]!]);
      }
    }
    return this.places.get(id) ?? [];
  }

  /** Where the plan's start literals begin, in text order. */
  private startPlaces(plan: Plan): readonly number[] {
    if (plan.starts.length === 1) return this.placesOf(plan.starts[0]!);
    const out: number[] = [];
    for (const id of plan.starts) for (const at of this.placesOf(id)) out.push(at);
    // One list is already in order; several are merged.
    return out.sort((a, b) => a - b);
  }
}

/**
 * A literal too common to be worth noting: one ASCII character, or two with a space (". ").
 * Prose is full of them, so an expression with such a start is scanned whole instead, and
 * such a required set is not checked.
 */
function weak(s: string): boolean {
  return (s.length === 1 && s.charCodeAt(0) < 128) || (s.length === 2 && /[\t\n ]/.test(s));
}

function anySeen(ids: readonly number[], seen: Uint8Array): boolean {
  for (const id of ids) if (seen[id] === 1) return true;
  return false;
}

function stickyAt(sticky: RegExp, text: string, at: number): boolean {
  sticky.lastIndex = at;
  return sticky.test(text);
}

function stripGY(flags: string): string {
  return flags.replace(/[gy]/g, '');
}

/** The expressions of a table of patterns: each pattern's own and its gate. */
export function expressionsOf(patterns: readonly Pattern[]): RegExp[] {
  return patterns.flatMap((p) => (p.needs ? [p.re, p.needs] : [p.re]));
}

/** How ./literals-table.ts names an expression: its flags and its source. */
export function literalsKey(re: RegExp): string {
  return `${re.flags}/${re.source}`;
}

/** What scans a text for a set of expressions: a Matcher, or one that is not built yet. */
export interface TextScanner {
  scan(text: string): TextScan;
}

/**
 * The automaton costs about 8 ms to build, more than the per-rule path spends on the few
 * small files of one skill, but soon repaid over many. So the first texts, up to this many
 * characters (each counted as at least DIRECT_TEXT_MIN, at most 8 texts), are scanned per
 * rule: a lint of one small skill (an install) never builds it, a lint of many pays a
 * millisecond or two more.
 */
const DIRECT_BUDGET = 8192;
const DIRECT_TEXT_MIN = 1024;

/**
 * A matcher built once the texts scanned have added up to more than DIRECT_BUDGET. Before,
 * each text is scanned by a matcher that knows no expression, which runs each one's own
 * search over the whole text: the per-rule path whose results the matcher reproduces (D130).
 */
export function lazyMatcher(
  expressions: () => readonly RegExp[],
  table?: Readonly<Record<string, Literals>>,
): () => TextScanner {
  let matcher: Matcher | undefined;
  let perRule: Matcher | undefined;
  let direct = 0;
  const scanner: TextScanner = {
    scan(text) {
      if (!matcher) {
        direct += Math.max(text.length, DIRECT_TEXT_MIN);
        if (direct <= DIRECT_BUDGET) return (perRule ??= new Matcher([])).scan(text);
        matcher = new Matcher(expressions(), table);
      }
      return matcher.scan(text);
    },
  };
  return () => scanner;
}
