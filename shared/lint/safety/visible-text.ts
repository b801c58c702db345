import { findInjection } from '../injection';
import type { TextScan } from '../match/matcher';
import type { Hit } from '../types';

/**
 * Characters that render as nothing yet reach the model: zero-width and joiners, bidi
 * embeddings/overrides/isolates, word joiners and invisible operators, a BOM past the
 * first byte, and the Unicode tag block.
 */
export const INVISIBLE_RUN = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]+/gu;

/** `scan`: the text's one-pass scan, when the caller has one; it tells when no such character occurs. */
export function findInvisible(text: string, scan?: TextScan): Hit[] {
  if (scan && !scan.possible(INVISIBLE_RUN)) return [];
  const hits: Hit[] = [];
  for (const m of text.matchAll(INVISIBLE_RUN)) {
    hits.push({ label: codePoints(m[0]).join(', '), offset: m.index, length: m[0].length, match: m[0] });
  }
  return hits;
}

/** Bidi marks: they set the direction of neighbouring neutral characters and cannot reorder or hide letters. */
const BIDI_MARKS = /^[\u200E\u200F]+$/u;
const ZWJ = '\u200D';
/** An emoji, or what may end one before a joiner: a skin-tone modifier or the emoji variation selector. */
const EMOJI_BEFORE = /(?:\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\uFE0F)$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/** The characters that mark a break or no-break point inside text: ZWSP, ZWNJ, word joiner, ZWNBSP. */
const WORD_SPLITTER = /^[\u200B\u200C\u2060\uFEFF]$/u;
/** Those and the joiner, one of which between fence characters only keeps a nested fence from closing. */
const FENCE_SPLITTER = /^[\u200B-\u200D\u2060\uFEFF]$/u;
const LETTER_BEFORE = /\p{L}$/u;
const LETTER_AFTER = /^\p{L}/u;
const FENCE_AFTER = /^(?:`{3}|~{3})/;
const INVISIBLE_ANY = new RegExp(INVISIBLE_RUN.source, 'gu');

/**
 * One zero-width character that only splits a fence (``` ``\u200B` ``` shows a fence inside a
 * fenced example) or sits between two letters of a word: the letters stay visible, so it
 * hides nothing — unless it splits a phrase the injection heuristics look for, which is the
 * one thing such a split can do (evade a keyword scanner), and then it blocks (SPEC.md D243).
 */
function splitsFenceOrWord(text: string, hit: Hit, prose: boolean): boolean {
  const before = text.slice(Math.max(0, hit.offset - 2), hit.offset);
  const after = text.slice(hit.offset + hit.length, hit.offset + hit.length + 3);
  if (FENCE_SPLITTER.test(hit.match)) {
    if (/[`~]$/.test(before) && /^[`~]/.test(after)) return true;
    const indent = text.slice(text.lastIndexOf('\n', hit.offset - 1) + 1, hit.offset);
    if (/^[ \t]*$/.test(indent) && FENCE_AFTER.test(after)) return true;
  }
  return (
    prose &&
    WORD_SPLITTER.test(hit.match) &&
    LETTER_BEFORE.test(before) &&
    LETTER_AFTER.test(after) &&
    !splitsDirective(text, hit)
  );
}

/** A blank, a line end, punctuation or an ASCII operator: what ends a word or a name in prose and code. */
const APART = /^(?:|[\s\p{P}`~^|+<=>])$/u;

/**
 * One zero-width character between blanks, line ends, quotes or punctuation — alone on a blank
 * line, in an empty table cell, as the whole of a quoted string: it touches no word, so it can
 * neither hide a letter nor make two names that look alike differ, and one character carries no
 * text. Unless it splits a phrase the injection heuristics look for (SPEC.md D257).
 */
function standsApart(text: string, hit: Hit): boolean {
  if (!FENCE_SPLITTER.test(hit.match)) return false;
  const before = [...text.slice(Math.max(0, hit.offset - 2), hit.offset)].pop() ?? '';
  const after = [...text.slice(hit.offset + hit.length, hit.offset + hit.length + 2)][0] ?? '';
  return APART.test(before) && APART.test(after) && !splitsDirective(text, hit);
}

/**
 * Prose, where a zero-width character inside a word is a line-break hint or a non-joiner of
 * spelling. In code the same character makes a name that looks like another but is not
 * (Trojan Source's invisible identifiers), so there it blocks.
 */
export function isProse(path: string): boolean {
  return /\.(?:md|markdown|mdx|mdown|mkd|txt|rst|adoc)$/i.test(path);
}

/** Longer than any injection heuristic's match (the HTML-comment one reads up to 400 characters). */
const WINDOW = 600;

/** Whether the text around the run, read without invisible characters, has an injection phrase across the run. */
function splitsDirective(text: string, hit: Hit): boolean {
  const before = text.slice(Math.max(0, hit.offset - WINDOW), hit.offset).replace(INVISIBLE_ANY, '');
  const after = text.slice(hit.offset + hit.length, hit.offset + hit.length + WINDOW).replace(INVISIBLE_ANY, '');
  const at = before.length;
  return findInjection(before + after).some((h) => h.offset < at && h.offset + h.length > at);
}

/**
 * Whether a run hides nothing and is only worth a notice: a zero-width joiner that glues two
 * emoji into one (👨‍👩‍👧), a left-to-right / right-to-left mark, one zero-width character that
 * splits a fence or, in prose, a word (splitsFenceOrWord), or one that touches no word at all
 * (standsApart). Everything else (runs of zero-width characters, embeddings, overrides,
 * isolates, tags, a zero-width character inside a name in code) can hide or reorder
 * instructions, or make names that look alike differ, and still blocks.
 */
export function isHarmlessRun(text: string, hit: Hit, prose: boolean): boolean {
  if (BIDI_MARKS.test(hit.match)) return true;
  if (splitsFenceOrWord(text, hit, prose) || standsApart(text, hit)) return true;
  if (hit.match !== ZWJ) return false;
  const before = text.slice(Math.max(0, hit.offset - 4), hit.offset);
  const after = text.slice(hit.offset + hit.length, hit.offset + hit.length + 4);
  return EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after);
}

/** Distinct code points of the runs, `U+XXXX`, in first-seen order. */
export function distinctCodePoints(hits: readonly Hit[]): string[] {
  const seen = new Set<string>();
  for (const h of hits) for (const cp of codePoints(h.match)) seen.add(cp);
  return [...seen];
}

function codePoints(run: string): string[] {
  const out = new Set<string>();
  for (const ch of run) out.add(`U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return [...out];
}
