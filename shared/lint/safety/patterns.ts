import type { Hit } from '../types';

export interface Pattern {
  readonly label: string;
  /** Must carry the `g` flag. */
  readonly re: RegExp;
}

/** Every match of every pattern, in pattern order then text order, capped per pattern. */
export function findAll(text: string, patterns: readonly Pattern[], keep: (match: string) => boolean = () => true, cap = 50): Hit[] {
  const hits: Hit[] = [];
  for (const { label, re } of patterns) {
    let n = 0;
    for (const m of text.matchAll(re)) {
      if (!keep(m[0])) continue;
      hits.push({ label, offset: m.index, length: m[0].length, match: m[0] });
      if (++n >= cap) break;
    }
  }
  return hits;
}
