import { commonEnds, splitLines } from '../../../../shared/text/diff';

/**
 * A line diff (Myers, after trimming the common prefix and suffix) for the preview's
 * "against disk" view. Past `maxEdits` differences it gives up and reports the middle as
 * one replaced block, so a wholly rewritten 20,000-token file never stalls the UI.
 */
export type DiffLine = { kind: 'same' | 'add' | 'del'; text: string; oldNo?: number; newNo?: number };

export function diffLines(before: string, after: string, maxEdits = 2000): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const { pre, suf } = commonEnds(a, b);
  const out: DiffLine[] = [];
  for (let i = 0; i < pre; i++) out.push({ kind: 'same', text: a[i]!, oldNo: i + 1, newNo: i + 1 });
  const ma = a.slice(pre, a.length - suf);
  const mb = b.slice(pre, b.length - suf);
  const mid = myers(ma, mb, maxEdits) ?? [
    ...ma.map((t) => ({ kind: 'del' as const, text: t })),
    ...mb.map((t) => ({ kind: 'add' as const, text: t })),
  ];
  let o = pre;
  let n = pre;
  for (const d of mid) {
    if (d.kind === 'same') out.push({ ...d, oldNo: ++o, newNo: ++n });
    else if (d.kind === 'del') out.push({ ...d, oldNo: ++o });
    else out.push({ ...d, newNo: ++n });
  }
  for (let i = 0; i < suf; i++) out.push({ kind: 'same', text: a[a.length - suf + i]!, oldNo: ++o, newNo: ++n });
  return out;
}

function myers(a: readonly string[], b: readonly string[], maxEdits: number): DiffLine[] | undefined {
  const N = a.length;
  const M = b.length;
  const max = Math.min(N + M, maxEdits);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < N && y < M && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= N && y >= M) return backtrack(trace, a, b, off, d);
    }
  }
  return undefined;
}

function backtrack(
  trace: Int32Array[],
  a: readonly string[],
  b: readonly string[],
  off: number,
  dEnd: number,
): DiffLine[] {
  const out: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[off + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ kind: 'same', text: a[--x]! });
      y--;
    }
    if (x === prevX) out.push({ kind: 'add', text: b[--y]! });
    else out.push({ kind: 'del', text: a[--x]! });
  }
  while (x > 0 && y > 0) {
    out.push({ kind: 'same', text: a[--x]! });
    y--;
  }
  return out.reverse();
}

/** Counts of added and removed lines. */
export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === 'add') added++;
    else if (l.kind === 'del') removed++;
  }
  return { added, removed };
}
