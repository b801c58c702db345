/**
 * Where in the input a decision's matched rules matched: the character spans of every
 * `user_says_any` / `user_says_all_groups` phrase (and the keywords behind a boolean
 * heuristic) that a matched rule found, for highlighting in the playground. Pure; the
 * same matching rules as decide.ts (lower-cased input, trimmed phrase or its naive plural,
 * ASCII identifier characters as the only non-boundaries), so a rule decide() counts as
 * matched on a phrase always has at least one span for it.
 */
import { decide, HEURISTIC_KEYWORDS } from './decide';
import type { Predicate, SkillSpec } from './model';

export type PhraseSource = 'user_says_any' | 'user_says_all_groups' | 'heuristic';

export interface PhraseSpan {
  /** UTF-16 offsets into the original input, end exclusive. */
  start: number;
  end: number;
  rule_id: string;
  /** The phrase as written in the spec (for a heuristic, the fixed keyword). */
  phrase: string;
  source: PhraseSource;
  /** The heuristic's name when source is 'heuristic'. */
  heuristic?: string;
}

const isIdent = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * Every bounded occurrence of `needle` in `hay` (both lower-cased), scanning as decide
 * does: after any hit, bounded or not, the scan resumes at that hit's end.
 */
function boundedHits(hay: string, needle: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (needle === '') return out;
  let from = 0;
  while (from < hay.length) {
    const s = hay.indexOf(needle, from);
    if (s === -1) break;
    const e = s + needle.length;
    const before = s > 0 ? hay.charCodeAt(s - 1) : -1;
    const after = e < hay.length ? hay.charCodeAt(e) : -1;
    if (!(before !== -1 && isIdent(before)) && !(after !== -1 && isIdent(after))) out.push([s, e]);
    from = e;
  }
  return out;
}

/**
 * The lower-cased input and, when lower-casing changed the length (e.g. `İ`), a map from
 * each lower-cased offset back to the original one.
 */
function lowered(input: string): { text: string; toOriginal: ((i: number) => number) | null } {
  const whole = input.toLowerCase();
  if (whole.length === input.length) return { text: whole, toOriginal: null };
  let text = '';
  const map: number[] = [];
  for (let i = 0; i < input.length;) {
    const cp = input.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const low = ch.toLowerCase();
    for (let k = 0; k < low.length; k++) map.push(i);
    text += low;
    i += ch.length;
  }
  map.push(input.length);
  return { text, toOriginal: (i) => map[i] ?? input.length };
}

function phraseHits(hay: string, phrase: string): Array<[number, number]> {
  const p = phrase.toLowerCase().trim();
  if (p === '') return [];
  const hits = boundedHits(hay, p);
  if (!p.endsWith('s')) hits.push(...boundedHits(hay, `${p}s`));
  return hits;
}

/** Spans of one predicate's phrases in `input`; the predicate is assumed to have matched. */
export function predicateSpans(p: Predicate, input: string, ruleId: string): PhraseSpan[] {
  const { text, toOriginal } = lowered(input);
  const out: PhraseSpan[] = [];
  const add = (hits: Array<[number, number]>, phrase: string, source: PhraseSource, heuristic?: string): void => {
    for (const [s, e] of hits) {
      out.push({
        start: toOriginal ? toOriginal(s) : s,
        end: toOriginal ? toOriginal(e) : e,
        rule_id: ruleId,
        phrase,
        source,
        ...(heuristic !== undefined ? { heuristic } : {}),
      });
    }
  };
  for (const phrase of p.user_says_any) add(phraseHits(text, phrase), phrase, 'user_says_any');
  for (const group of p.user_says_all_groups)
    for (const phrase of group) add(phraseHits(text, phrase), phrase, 'user_says_all_groups');
  for (const name of Object.keys(HEURISTIC_KEYWORDS) as Array<keyof typeof HEURISTIC_KEYWORDS>) {
    // Only a heuristic the rule wants true was "found" in the text; `false` matched by absence.
    if (p[name] !== true) continue;
    for (const kw of HEURISTIC_KEYWORDS[name]) add(phraseHits(text, kw), kw, 'heuristic', name);
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  return out;
}

/**
 * The spans behind every rule a decision matched, in input order. Pass the rule ids of a
 * decision you already have, or let it decide again.
 */
export function matchedPhraseSpans(spec: SkillSpec, input: string, matchedRuleIds?: readonly string[]): PhraseSpan[] {
  const ids = new Set(matchedRuleIds ?? decide(spec, input).matched_rules.map((m) => m.id));
  const out: PhraseSpan[] = [];
  for (const rule of spec.rules) if (ids.has(rule.id)) out.push(...predicateSpans(rule.when, input, rule.id));
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  return out;
}

export interface Segment {
  text: string;
  /** The spans covering this piece (empty for plain text). */
  spans: PhraseSpan[];
}

/** Cut the input into plain and highlighted pieces (overlapping spans share a piece). */
export function segmentInput(input: string, spans: readonly PhraseSpan[]): Segment[] {
  const cuts = new Set<number>([0, input.length]);
  for (const s of spans) {
    cuts.add(Math.max(0, Math.min(input.length, s.start)));
    cuts.add(Math.max(0, Math.min(input.length, s.end)));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    if (a === b) continue;
    out.push({ text: input.slice(a, b), spans: spans.filter((s) => s.start <= a && s.end >= b) });
  }
  return out;
}
