/**
 * Line diffing for any two texts: the lock review, settings, evals and the previews all
 * show diffs. The edit script is jsdiff's Myers diff (the `diff` package, its only import
 * point); the common head and tail are trimmed first, and past `maxEdits` differences in
 * the middle it gives up and shows that middle as removed, then added (spec D270), so a
 * wholly rewritten large file costs a bounded time instead of stalling the caller.
 */
import { diffArrays } from 'diff';

/** One line of an edit script: kept, removed or added. */
export interface LineOp {
  readonly t: ' ' | '-' | '+';
  readonly s: string;
}

/** Past this many removed plus added lines, a unified diff gives up (about 0.2 s of work at worst). */
export const MAX_DIFF_EDITS = 1000;

/**
 * The edit script from `a` to `b`: a shortest one while it has at most `maxEdits` removed
 * and added lines between the common head and tail, else that middle removed whole, then
 * added whole.
 */
export function lineOps(a: readonly string[], b: readonly string[], maxEdits: number): LineOp[] {
  const { pre, suf } = commonEnds(a, b);
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const ops: LineOp[] = a.slice(0, pre).map((s) => ({ t: ' ', s }));
  const changes = diffArrays(am, bm, { maxEditLength: maxEdits });
  if (changes) {
    for (const c of changes) {
      const t = c.added ? '+' : c.removed ? '-' : ' ';
      for (const s of c.value) ops.push({ t, s });
    }
  } else {
    for (const s of am) ops.push({ t: '-', s });
    for (const s of bm) ops.push({ t: '+', s });
  }
  for (const s of a.slice(a.length - suf)) ops.push({ t: ' ', s });
  return ops;
}

/**
 * A unified diff (3 lines of context) of two texts; a missing side is empty; '' when their
 * lines are the same (a final newline alone is no difference).
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  const full = lineOps(splitLines(before), splitLines(after), MAX_DIFF_EDITS);
  const changed = full.map((o, k) => (o.t !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  // Group into hunks with 3 lines of context.
  const lines: string[] = [`--- a/${path}`, `+++ b/${path}`];
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
    // An empty range starts where the other side's does (`@@ -1,0 +1,2 @@`), as kitbash writes
    // it, so `skillsmith diff` prints what the reference prints (SPEC D270).
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
