import { describe, expect, it } from 'vitest';
import type { SkillTree, TreeEntry } from '../../shared/ksf/tree';
import { conflictMarkers, mergeText, mergeTrees } from '../../shared/lock/merge';

const enc = new TextEncoder();
const dec = new TextDecoder();
const tree = (files: Record<string, string | Uint8Array>): SkillTree => ({
  root: 't',
  entries: Object.entries(files).map(([path, v]): TreeEntry => ({
    kind: 'file',
    path,
    bytes: typeof v === 'string' ? enc.encode(v) : v,
  })),
});
const text = (m: ReturnType<typeof mergeTrees>) =>
  Object.fromEntries(m.entries.map((e) => [e.path, e.kind === 'file' ? dec.decode(e.bytes) : '']));

describe('mergeTrees', () => {
  const base = tree({ 'a.md': 'one\ntwo\nthree\n', 'gone.md': 'x\n', 'kept.md': 'k\n' });

  it('takes each side where only it changed, removes what upstream removed, keeps local-only files', () => {
    const ours = tree({ 'a.md': 'ONE\ntwo\nthree\n', 'gone.md': 'x\n', 'kept.md': 'k\n', 'mine.md': 'm\n' });
    const theirs = tree({ 'a.md': 'one\ntwo\nTHREE\n', 'kept.md': 'k2\n', 'new.md': 'n\n' });
    const m = mergeTrees(base, ours, theirs);
    expect(text(m)).toEqual({
      'a.md': 'ONE\ntwo\nTHREE\n',
      'kept.md': 'k2\n',
      'mine.md': 'm\n',
      'new.md': 'n\n',
    });
    expect(m.files).toEqual([
      { path: 'a.md', outcome: 'merged' },
      { path: 'gone.md', outcome: 'deleted' },
      { path: 'kept.md', outcome: 'upstream' },
      { path: 'mine.md', outcome: 'local' },
      { path: 'new.md', outcome: 'upstream' },
    ]);
  });

  it('leaves markers on a conflict, or settles it whole with --ours / --theirs', () => {
    const ours = tree({ ...{ 'a.md': 'one\nTWO-L\nthree\n' }, 'gone.md': 'x\n', 'kept.md': 'k\n' });
    const theirs = tree({ 'a.md': 'one\nTWO-U\nthree\n', 'gone.md': 'x\n', 'kept.md': 'k\n' });
    const m = mergeTrees(base, ours, theirs);
    expect(text(m)['a.md']).toBe('one\n<<<<<<< local\nTWO-L\n=======\nTWO-U\n>>>>>>> upstream\nthree\n');
    expect(m.files).toEqual([{ path: 'a.md', outcome: 'conflict' }]);
    expect(conflictMarkers({ root: 't', entries: m.entries })).toEqual(['a.md:2']);
    expect(text(mergeTrees(base, ours, theirs, 'ours'))['a.md']).toBe('one\nTWO-L\nthree\n');
    expect(text(mergeTrees(base, ours, theirs, 'theirs'))['a.md']).toBe('one\nTWO-U\nthree\n');
  });

  it('cannot put markers in a binary file or against a removal: unresolved unless a side is chosen', () => {
    const bin = (b: number) => new Uint8Array([0, 1, 2, b]);
    const b = tree({ 'x.bin': bin(1), 'e.md': 'e\n' });
    const ours = tree({ 'x.bin': bin(2), 'e.md': 'e local\n' });
    const theirs = tree({ 'x.bin': bin(3) });
    expect(mergeTrees(b, ours, theirs).files).toEqual([
      { path: 'e.md', outcome: 'unresolved' },
      { path: 'x.bin', outcome: 'unresolved' },
    ]);
    const t = mergeTrees(b, ours, theirs, 'theirs');
    expect(t.entries.map((e) => e.path)).toEqual(['x.bin']);
  });

  it('without a base, every difference is a conflict for the flag, and no local file is deleted', () => {
    const ours = tree({ 'a.md': 'local\n', 'mine.md': 'm\n' });
    const theirs = tree({ 'a.md': 'upstream\n', 'new.md': 'n\n' });
    expect(mergeTrees(undefined, ours, theirs).files).toContainEqual({ path: 'a.md', outcome: 'unresolved' });
    expect(text(mergeTrees(undefined, ours, theirs, 'theirs'))).toEqual({
      'a.md': 'upstream\n',
      'mine.md': 'm\n',
      'new.md': 'n\n',
    });
  });

  it('keeps a file without a final newline as it is, and never glues a marker to a line', () => {
    expect(mergeText('a\nb\n', 'a\nb\n', 'a\nb\nc')).toEqual({ text: 'a\nb\nc', conflict: false });
    expect(mergeText('x', '', 'y').text).toBe('<<<<<<< local\nx\n=======\ny\n>>>>>>> upstream\n');
  });
});
