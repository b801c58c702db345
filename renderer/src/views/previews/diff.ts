import { lineOps, splitLines } from '../../../../shared/text/diff';

/**
 * A line diff for the preview's "against disk" view (shared/text/diff.ts: Myers after
 * trimming the common head and tail). Past `maxEdits` differences it reports the middle as
 * one replaced block, so a wholly rewritten 20,000-token file never stalls the UI.
 */
export type DiffLine = { kind: 'same' | 'add' | 'del'; text: string; oldNo?: number; newNo?: number };

export function diffLines(before: string, after: string, maxEdits = 2000): DiffLine[] {
  let o = 0;
  let n = 0;
  return lineOps(splitLines(before), splitLines(after), maxEdits).map(({ t, s }): DiffLine => {
    if (t === ' ') return { kind: 'same', text: s, oldNo: ++o, newNo: ++n };
    return t === '-' ? { kind: 'del', text: s, oldNo: ++o } : { kind: 'add', text: s, newNo: ++n };
  });
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
