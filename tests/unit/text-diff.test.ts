import { describe, expect, it } from 'vitest';
import { lineOps, MAX_DIFF_EDITS, unifiedDiff } from '../../shared/text/diff';

const lines = (n: number, tag: string): string[] => Array.from({ length: n }, (_, i) => `${tag} ${i}`);

describe('unifiedDiff', () => {
  it('writes hunks with three lines of context', () => {
    const a = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const b = 'a\nb\nc\nd\nE\nf\ng\nh\ni\nj\nk\n';
    expect(unifiedDiff('x.md', a, b)).toBe(
      [
        '--- a/x.md',
        '+++ b/x.md',
        '@@ -2,9 +2,10 @@',
        ' b',
        ' c',
        ' d',
        '-e',
        '+E',
        ' f',
        ' g',
        ' h',
        ' i',
        ' j',
        '+k',
        '',
      ].join('\n'),
    );
  });

  it('is empty when only the final newline differs, and names line 0 for an empty side', () => {
    expect(unifiedDiff('x', 'a\nb', 'a\nb\n')).toBe('');
    expect(unifiedDiff('new.md', '', 'one\ntwo\n')).toBe('--- a/new.md\n+++ b/new.md\n@@ -1,0 +1,2 @@\n+one\n+two\n');
    expect(unifiedDiff('gone.md', 'one\n', '')).toBe('--- a/gone.md\n+++ b/gone.md\n@@ -1,1 +1,0 @@\n-one\n');
  });

  it('finds a small change in a large file as a small hunk', () => {
    const a = lines(50_000, 'line');
    const b = a.slice();
    b[25_000] = 'changed';
    b.splice(40_000, 1);
    const d = unifiedDiff('big', a.join('\n'), b.join('\n'));
    expect(d.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual(['-line 25000', '+changed', '-line 40000']);
  });

  it(`past ${MAX_DIFF_EDITS} edits shows the middle removed, then added, in bounded time`, () => {
    const a = ['head', ...lines(800, 'old'), 'tail'];
    const b = ['head', ...lines(800, 'new'), 'tail'];
    const t0 = performance.now();
    const ops = lineOps(a, b, MAX_DIFF_EDITS);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(ops.map((o) => o.t).join('')).toBe(' ' + '-'.repeat(800) + '+'.repeat(800) + ' ');
    // Within the limit the script is a shortest one: interleaved, not a block.
    const c = a.map((l, i) => (i % 4 === 1 ? `edited ${i}` : l));
    const few = lineOps(a, c, MAX_DIFF_EDITS);
    expect(few.filter((o) => o.t !== ' ').length).toBe(2 * c.filter((l) => l.startsWith('edited')).length);
    expect(few[1]).toEqual({ t: '-', s: 'old 0' });
    expect(few[3]).toEqual({ t: ' ', s: 'old 1' });
  });
});
