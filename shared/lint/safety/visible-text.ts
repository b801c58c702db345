import type { Hit } from '../types';

/**
 * Characters that render as nothing yet reach the model: zero-width and joiners, bidi
 * embeddings/overrides/isolates, word joiners and invisible operators, a BOM past the
 * first byte, and the Unicode tag block.
 */
const INVISIBLE_RUN = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]+/gu;

export function findInvisible(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const m of text.matchAll(INVISIBLE_RUN)) {
    hits.push({ label: codePoints(m[0]).join(', '), offset: m.index, length: m[0].length, match: m[0] });
  }
  return hits;
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
