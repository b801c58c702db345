/**
 * Edit distance with adjacent transpositions (optimal string alignment): `netwrok` is one
 * step from `network`, as a person would count the typo.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const m = a.length;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const row = new Array<number>(n + 1);
    row[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row[j] = d;
    }
    prev2 = prev;
    prev = row;
  }
  return prev[n]!;
}

/**
 * The candidate closest to `word` (case-insensitive), if it is close enough to be the word
 * meant: at most a third of its length away, and one step at least. Ties go to the first.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: { c: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { c, d };
  }
  return best?.c;
}
