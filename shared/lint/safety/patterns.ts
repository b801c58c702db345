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
    // exec on the shared expression, not matchAll: matchAll clones the RegExp per call.
    re.lastIndex = 0;
    let n = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      if (!keep(m[0])) continue;
      hits.push({ label, offset: m.index, length: m[0].length, match: m[0] });
      if (++n >= cap) break;
    }
  }
  return hits;
}
