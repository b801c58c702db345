/**
 * Literal strings read from a regular expression's source: the ones that can begin a
 * match, and a set of which every match contains one.
 *
 * The one-pass matcher (./matcher.ts) finds these strings in a single scan of a text and
 * then tries the expression only where a start string begins, and only in texts that hold a
 * required one. That is exact only if the sets are complete, so the analysis errs one way
 * only: when it cannot tell (a wide class, a back-reference, `.`, syntax it does not know)
 * a string ends there, and when even the first character is unknown the expression has no
 * start strings and is scanned whole, as before.
 *
 * Under the `i` flag the strings are lower-cased: JavaScript then folds an ASCII letter only
 * to its ASCII twin (without `u`), which is what the scan does too; a cased non-ASCII letter
 * under `i` could match a variant the scan would not see, so it ends the string. Without `i`
 * the strings keep their case.
 */

export interface Literals {
  /** Every match begins with one of these; empty when that cannot be said. */
  readonly starts: readonly string[];
  /** Every match contains one string of each of these sets (at most a few, the rarest found). */
  readonly required: readonly (readonly string[])[];
  /**
   * The expression is an alternation of plain strings (no assertion, repetition, wide class
   * or back-reference), so it matches exactly where one of `starts` occurs.
   */
  readonly pure: boolean;
}

/** A prefix; `exact` when it spells the whole of what its sub-expression matched, so more can follow. */
interface Lit {
  readonly s: string;
  readonly exact: boolean;
}

/** A finite set of prefixes, or `undefined` when the sub-expression can start with too many things to list. */
type Seq = readonly Lit[] | undefined;

type Strings = readonly string[];

/** What a sub-expression tells: how its matches begin, and sets of strings each match contains one of. */
interface Part {
  readonly seq: Seq;
  readonly req: readonly Strings[];
}

const MAX_LITERALS = 512;
const MAX_LENGTH = 24;
/** How many required sets are kept per sequence. */
const MAX_REQUIRED = 3;
/** A class with more members than this (`\w`, `[^…]`) is "anything" to the analysis. */
const MAX_CLASS = 32;

const EMPTY: readonly Lit[] = [{ s: '', exact: true }];
const UNKNOWN: Part = { seq: undefined, req: [] };
const DIGITS = '0123456789';

export function literalsOf(re: RegExp): Literals {
  let part: Part = UNKNOWN;
  let pure = false;
  try {
    const parser = new Parser(re.source, re.flags);
    part = parser.alternation();
    if (parser.pos !== re.source.length) part = UNKNOWN;
    pure = parser.pure;
  } catch {
    part = UNKNOWN;
  }
  const starts = usable(part.seq?.map((l) => l.s));
  return {
    starts,
    required: part.req.map(usable).filter((r) => r.length > 0),
    pure: pure && starts.length > 0 && part.seq!.every((l) => l.exact),
  };
}

/** The set without strings another one begins with (finding the shorter finds both); empty if it holds "". */
function usable(strings: readonly string[] | undefined): string[] {
  if (strings === undefined || strings.length === 0 || strings.includes('')) return [];
  const out: string[] = [];
  // Sorted, the strings a kept one begins follow it directly: comparing with the last kept suffices.
  for (const s of [...new Set(strings)].sort())
    if (out.length === 0 || !s.startsWith(out[out.length - 1]!)) out.push(s);
  return out;
}

function inexact(seq: Seq): Seq {
  return seq?.map((l) => (l.exact ? { s: l.s, exact: false } : l));
}

function dedupe(lits: readonly Lit[]): Lit[] {
  const seen = new Map<string, Lit>();
  for (const l of lits) {
    const k = `${l.exact ? 1 : 0}${l.s}`;
    if (!seen.has(k)) seen.set(k, l);
  }
  return [...seen.values()];
}

function concat(a: Seq, b: Seq): Seq {
  if (a === undefined) return undefined;
  const out: Lit[] = [];
  for (const x of a) {
    if (!x.exact) out.push(x);
    else if (b === undefined) out.push({ s: x.s, exact: false });
    else for (const y of b) out.push(clip({ s: x.s + y.s, exact: y.exact }));
  }
  const d = dedupe(out);
  // Too many combinations: stop extending here, which only makes the prefixes shorter.
  return d.length > MAX_LITERALS ? dedupe(inexact(a)!) : d;
}

function clip(l: Lit): Lit {
  return l.s.length > MAX_LENGTH ? { s: l.s.slice(0, MAX_LENGTH), exact: false } : l;
}

function union(a: Seq, b: Seq): Seq {
  if (a === undefined || b === undefined) return undefined;
  let d = dedupe([...a, ...b]);
  // Too many alternatives: shorten them all until few enough remain (length 0 = unknown).
  for (let n = MAX_LENGTH; d.length > MAX_LITERALS; n--) {
    d = dedupe(d.map((l) => (l.s.length > n ? { s: l.s.slice(0, n), exact: false } : l)));
  }
  return d;
}

/**
 * The rarest few of several required sets: those whose shortest string is longest, then the
 * smallest; a set is left out when a kept one already implies it (each of its strings contains
 * one of the other's, as "instructions" contains "ions").
 */
function rarest(sets: readonly (Strings | readonly Lit[])[]): Strings[] {
  const scored: { set: Strings | readonly Lit[]; score: number }[] = [];
  for (const set of sets) {
    let shortest = MAX_LENGTH;
    for (const x of set) shortest = Math.min(shortest, typeof x === 'string' ? x.length : x.s.length);
    if (set.length > 0 && shortest > 0) scored.push({ set, score: shortest * 10_000 - set.length });
  }
  scored.sort((a, b) => b.score - a.score);
  const kept: Strings[] = [];
  for (const { set } of scored) {
    if (kept.length === MAX_REQUIRED) break;
    const r = set.map((x) => (typeof x === 'string' ? x : x.s));
    const implied = r.length <= 16 && kept.some((k) => k.length <= 16 && k.every((s) => r.some((x) => s.includes(x))));
    if (!implied) kept.push(r);
  }
  return kept;
}

/** One plain character or string: a single exact prefix. */
function single(p: Part): boolean {
  return p.seq?.length === 1 && p.seq[0]!.exact && p.req.length === 1;
}

class Parser {
  pos = 0;
  pure = true;
  private readonly fold: boolean;
  private readonly unicode: boolean;

  constructor(
    private readonly src: string,
    flags: string,
  ) {
    // With `u`, `i` folds some ASCII letters to non-ASCII ones (k to the Kelvin sign): not analysed.
    if (flags.includes('v') || (flags.includes('u') && flags.includes('i'))) throw new Error('unicode case folding');
    this.fold = flags.includes('i');
    this.unicode = flags.includes('u');
  }

  alternation(): Part {
    const first = this.sequence();
    if (this.src[this.pos] !== '|') return first;
    let { seq } = first;
    // One set per branch (its rarest); a match contains a string of its own branch's set.
    let req: Strings | undefined = first.req[0];
    while (this.src[this.pos] === '|') {
      this.pos++;
      const next = this.sequence();
      seq = union(seq, next.seq);
      req = req === undefined || next.req[0] === undefined ? undefined : [...req, ...next.req[0]];
    }
    return { seq, req: req ? [req] : [] };
  }

  /**
   * Prefixes fold from the right (each element, then what follows it), which also yields the
   * prefixes of every suffix: each of those is a set every match contains one of.
   */
  private sequence(): Part {
    const parts: Part[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') {
      const part = this.term();
      const last = parts[parts.length - 1];
      // A run of plain characters is one string: fewer steps below, and longer required strings.
      if (last && single(last) && single(part)) {
        const s = last.seq![0]!.s + part.seq![0]!.s;
        parts[parts.length - 1] = { seq: [{ s, exact: true }], req: [[s]] };
      } else parts.push(part);
    }
    let seq: Seq = EMPTY;
    const req: (Strings | readonly Lit[])[] = [];
    for (let i = parts.length - 1; i >= 0; i--) {
      seq = concat(parts[i]!.seq, seq);
      req.push(...parts[i]!.req);
      if (seq) req.push(seq);
    }
    return { seq, req: rarest(req) };
  }

  private term(): Part {
    const atom = this.atom();
    const q = this.quantifier();
    if (!q) return atom;
    const [min, max] = q;
    if (min === 0) {
      return { seq: atom.seq && union(EMPTY, max === 1 ? atom.seq : inexact(atom.seq)), req: [] };
    }
    return { seq: max === 1 ? atom.seq : inexact(atom.seq), req: atom.req };
  }

  private quantifier(): [number, number] | undefined {
    const c = this.src[this.pos];
    let q: [number, number] | undefined;
    if (c === '*') q = [0, Infinity];
    else if (c === '+') q = [1, Infinity];
    else if (c === '?') q = [0, 1];
    if (q) this.pos++;
    else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) return undefined;
      this.pos += m[0].length;
      const min = Number(m[1]);
      q = [min, m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity];
    } else return undefined;
    if (this.src[this.pos] === '?') this.pos++;
    return q;
  }

  private atom(): Part {
    const c = this.src[this.pos++]!;
    if (c === '(') return this.group();
    if (c === '[') return this.chars(this.charClass());
    if (c === '.') return this.unknown();
    if (c === '^' || c === '$') return this.assertion();
    if (c === '\\') return this.escape();
    if (c === ')' || c === '*' || c === '+' || c === '?') throw new Error(`unexpected ${c}`);
    return this.chars([this.codePointAt(this.pos - 1)]);
  }

  /** The character at `at` (a whole code point under `u`), moving past a trail surrogate. */
  private codePointAt(at: number): number {
    if (!this.unicode) return this.src.charCodeAt(at);
    const cp = this.src.codePointAt(at)!;
    if (cp > 0xffff) this.pos++;
    return cp;
  }

  private group(): Part {
    const rest = this.src.slice(this.pos);
    if (/^\?(?:=|!|<=|<!)/.test(rest)) {
      this.pos += rest[1] === '<' ? 3 : 2;
      this.alternation();
      this.expect(')');
      return this.assertion();
    }
    if (rest.startsWith('?:')) this.pos += 2;
    else if (rest.startsWith('?<')) {
      const end = this.src.indexOf('>', this.pos);
      if (end < 0) throw new Error('group name');
      this.pos = end + 1;
    } else if (rest.startsWith('?')) throw new Error('group modifier');
    const inner = this.alternation();
    this.expect(')');
    return inner;
  }

  private expect(c: string): void {
    if (this.src[this.pos] !== c) throw new Error(`expected ${c}`);
    this.pos++;
  }

  /** Zero-width: consumes nothing, so prefixes pass through it, but the expression is no plain string. */
  private assertion(): Part {
    this.pure = false;
    return { seq: EMPTY, req: [] };
  }

  private unknown(): Part {
    this.pure = false;
    return UNKNOWN;
  }

  private escape(): Part {
    const c = this.src[this.pos++]!;
    if (c === 'b' || c === 'B') return this.assertion();
    if (c === 'd') return this.chars(codes(DIGITS));
    // \s is 25 characters, most of them exotic: listing them would multiply every set for little gain.
    if (c === 's' || c === 'w' || c === 'W' || c === 'D' || c === 'S') return this.unknown();
    if (/[1-9]/.test(c) || c === 'k') return this.unknown();
    return this.chars([this.escapedChar(c)]);
  }

  /** The code point an escape other than \b \d \s \w … stands for; `c` is the character after `\`. */
  private escapedChar(c: string): number {
    const simple: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12 };
    if (c in simple) return simple[c]!;
    if (c === '0' && !/\d/.test(this.src[this.pos] ?? '')) return 0;
    if (c === 'x') return this.hex(2);
    if (c === 'u') {
      if (this.unicode && this.src[this.pos] === '{') {
        const end = this.src.indexOf('}', this.pos);
        const cp = parseInt(this.src.slice(this.pos + 1, end), 16);
        if (end < 0 || !(cp <= 0x10ffff)) throw new Error('code point escape');
        this.pos = end + 1;
        return cp;
      }
      return this.hex(4);
    }
    if (/[A-Za-z0-9]/.test(c)) throw new Error(`escape \\${c}`);
    return this.codePointAt(this.pos - 1);
  }

  private hex(n: number): number {
    const digits = this.src.slice(this.pos, this.pos + n);
    if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(digits)) throw new Error('hex escape');
    this.pos += n;
    return parseInt(digits, 16);
  }

  /** The members of `[…]`, or undefined for a negated or wide class. */
  private charClass(): number[] | undefined {
    const negated = this.src[this.pos] === '^';
    if (negated) this.pos++;
    const members = new Set<number>();
    let wide = false;
    while (this.src[this.pos] !== ']') {
      if (this.pos >= this.src.length) throw new Error('unterminated class');
      const lo = this.classAtom();
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']') {
        this.pos++;
        const hi = this.classAtom();
        if (lo === 'wide' || hi === 'wide' || lo.length !== 1 || hi.length !== 1) throw new Error('class range');
        wide = addRange(members, lo[0]!, hi[0]!) || wide;
      } else if (lo === 'wide') wide = true;
      else for (const cp of lo) members.add(cp);
    }
    this.pos++;
    if (negated || wide || members.size > MAX_CLASS) return undefined;
    return [...members];
  }

  private classAtom(): number[] | 'wide' {
    const c = this.src[this.pos++]!;
    if (c !== '\\') return [this.codePointAt(this.pos - 1)];
    const e = this.src[this.pos++]!;
    if (e === 'd') return codes(DIGITS);
    if (e === 's' || e === 'w' || e === 'W' || e === 'D' || e === 'S') return 'wide';
    if (e === 'b') return [8];
    if (e === '-') return [45];
    return [this.escapedChar(e)];
  }

  /** One position that matches any of `cps`; a wide class (`undefined`) is unknown. */
  private chars(cps: readonly number[] | undefined): Part {
    if (cps === undefined || cps.length > MAX_CLASS) return this.unknown();
    const out: Lit[] = [];
    for (const cp of cps) {
      if (cp > 0xffff) {
        // An astral character: its lead surrogate is all the scan looks for.
        out.push({ s: String.fromCharCode(0xd800 + ((cp - 0x10000) >> 10)), exact: false });
        continue;
      }
      const ch = String.fromCharCode(cp);
      if (cp < 128) out.push({ s: this.fold ? ch.toLowerCase() : ch, exact: true });
      else if (this.fold && ch.toLowerCase() !== ch.toUpperCase()) return this.unknown();
      else out.push({ s: ch, exact: true });
    }
    const seq = dedupe(out);
    return { seq, req: [seq.map((l) => l.s)] };
  }
}

/**
 * Adds lo..hi to `members`; true when the range is too wide to list. An astral range is
 * listed by one member per lead surrogate, which is all the scan looks for.
 */
function addRange(members: Set<number>, lo: number, hi: number): boolean {
  if (hi < lo) throw new Error('class range out of order');
  if (Math.min(hi, 0xffff) - lo >= MAX_CLASS) return true;
  for (let cp = lo; cp <= Math.min(hi, 0xffff); cp++) members.add(cp);
  if (hi <= 0xffff) return false;
  const first = (Math.max(lo, 0x10000) - 0x10000) >> 10;
  const last = (hi - 0x10000) >> 10;
  if (last - first >= MAX_CLASS) return true;
  for (let lead = first; lead <= last; lead++) members.add(0x10000 + (lead << 10));
  return false;
}

function codes(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}
