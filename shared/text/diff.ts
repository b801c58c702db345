/** Line diffing for any two texts: the lock review, settings, evals and the previews all show diffs. */

/** A unified diff (3 lines of context) of two texts; a missing side is empty. */
export function unifiedDiff(path: string, before: string, after: string): string {
  const a = splitLines(before);
  const b = splitLines(after);
  const { pre, suf } = commonEnds(a, b);
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const ops: Array<{ t: ' ' | '-' | '+'; s: string }> = [];
  if (am.length * bm.length > 4_000_000) {
    for (const s of am) ops.push({ t: '-', s });
    for (const s of bm) ops.push({ t: '+', s });
  } else {
    const n = am.length;
    const m = bm.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i]![j] = am[i] === bm[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        ops.push({ t: ' ', s: am[i]! });
        i++;
        j++;
      } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ t: '-', s: am[i++]! });
      else ops.push({ t: '+', s: bm[j++]! });
    }
  }
  if (ops.every((o) => o.t === ' ')) return '';
  const full = [
    ...a.slice(0, pre).map((s) => ({ t: ' ' as const, s })),
    ...ops,
    ...a.slice(a.length - suf).map((s) => ({ t: ' ' as const, s })),
  ];
  // Group into hunks with 3 lines of context.
  const lines: string[] = [`--- a/${path}`, `+++ b/${path}`];
  const changed = full.map((o, k) => (o.t !== ' ' ? k : -1)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - 3);
    let end = Math.min(full.length, changed[k]! + 4);
    while (k + 1 < changed.length && changed[k + 1]! - 3 <= end) {
      k++;
      end = Math.min(full.length, changed[k]! + 4);
    }
    k++;
    let aStart = 1;
    let bStart = 1;
    for (let x = 0; x < start; x++) {
      if (full[x]!.t !== '+') aStart++;
      if (full[x]!.t !== '-') bStart++;
    }
    const hunk = full.slice(start, end);
    const aLen = hunk.filter((o) => o.t !== '+').length;
    const bLen = hunk.filter((o) => o.t !== '-').length;
    lines.push(`@@ -${aStart},${aLen} +${bStart},${bLen} @@`);
    for (const o of hunk) lines.push(`${o.t}${o.s}`);
  }
  return lines.join('\n') + '\n';
}

/** Lines of a text; a final newline does not make an empty last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const l = text.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l;
}

/** How many lines two line lists share at the start, and then at the end (never overlapping). */
export function commonEnds(a: readonly string[], b: readonly string[]): { pre: number; suf: number } {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  return { pre, suf };
}
