/** What the install form sends for each kind of source: the engine's source syntax, nothing guessed. */
import { describe, expect, it } from 'vitest';
import { EMPTY, sourceOf } from '../../renderer/src/views/install/source';
import { SourceText } from '../../shared/ipc/channels/install';

describe('install form → source string', () => {
  it('folder: a path becomes file:<path> (never read as a GitHub shorthand)', () => {
    expect(sourceOf({ ...EMPTY, kind: 'folder', folder: ' owner/repo ' })).toBe('file:owner/repo');
    expect(sourceOf({ ...EMPTY, kind: 'folder', folder: '/abs/skill' })).toBe('file:/abs/skill');
    expect(sourceOf({ ...EMPTY, kind: 'folder', folder: 'file:./x' })).toBe('file:./x');
    expect(sourceOf({ ...EMPTY, kind: 'folder', folder: '  ' })).toBe('');
  });
  it('git: url, then #ref and :path only when given', () => {
    expect(sourceOf({ ...EMPTY, gitUrl: 'https://h/r.git' })).toBe('https://h/r.git');
    expect(sourceOf({ ...EMPTY, gitUrl: 'https://h/r.git', gitRef: 'v1' })).toBe('https://h/r.git#v1');
    expect(sourceOf({ ...EMPTY, gitUrl: 'https://h/r.git', gitPath: '/skills/a' })).toBe('https://h/r.git#:skills/a');
    expect(sourceOf({ ...EMPTY, gitUrl: 'https://h/r.git', gitRef: 'main', gitPath: 'skills/a' })).toBe(
      'https://h/r.git#main:skills/a',
    );
  });
  it('github: gh: is added when missing', () => {
    expect(sourceOf({ ...EMPTY, kind: 'github', github: 'acme/skills/lint@v2' })).toBe('gh:acme/skills/lint@v2');
    expect(sourceOf({ ...EMPTY, kind: 'github', github: 'gh:acme/skills' })).toBe('gh:acme/skills');
  });
  it('main refuses what a renderer could send instead: multi-line, NUL, option-like, padded', () => {
    for (const bad of ['a\nb', 'a\0b', '--upload-pack=x', ' gh:a/b', ''])
      expect(SourceText.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(SourceText.safeParse('gh:acme/skills/lint@v2').success).toBe(true);
  });
});
