import type { Hit } from '../types';

export interface Pattern {
  readonly label: string;
  /** Must carry the `g` flag. */
  readonly re: RegExp;
  /** A cheap test the text must pass before `re` is tried (no `g` flag): most files fail it. */
  readonly needs?: RegExp;
}

/** Judges one match; `text` and `offset` let it read the match's line. */
export type Keep = (match: string, text: string, offset: number) => boolean;

/** Every match of every pattern, in pattern order then text order, capped per pattern. */
export function findAll(text: string, patterns: readonly Pattern[], keep: Keep = () => true, cap = 50): Hit[] {
  const hits: Hit[] = [];
  for (const { label, re, needs } of patterns) {
    if (needs && !needs.test(text)) continue;
    // exec on the shared expression, not matchAll: matchAll clones the RegExp per call.
    re.lastIndex = 0;
    let n = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      if (!keep(m[0], text, m.index)) continue;
      hits.push({ label, offset: m.index, length: m[0].length, match: m[0] });
      if (++n >= cap) break;
    }
  }
  return hits;
}

/** The whole line an offset falls on, without its line break. */
export function lineAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end === -1 ? text.length : end);
}
