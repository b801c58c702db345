/**
 * The editor session's pure parts: notices that go away by themselves (and stay while
 * read), what a change on disk does to a buffer, and which skill and tab come back.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveDraft } from '../../renderer/src/views/editor/drafts';
import { firstTab, forgetOpen, lastOpen, rememberOpen } from '../../renderer/src/views/editor/lastOpen';
import { INFO_MS, Notices } from '../../renderer/src/views/editor/notices';
import { reconcile } from '../../renderer/src/views/editor/reconcile';

describe('notices', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('an info notice goes by itself; an error stays until dismissed', () => {
    let changes = 0;
    const n = new Notices(() => changes++);
    n.push('info', 'Saved SKILL.md');
    const err = n.push('error', 'could not keep a draft');
    expect(n.list.map((x) => x.kind)).toEqual(['info', 'error']);
    vi.advanceTimersByTime(INFO_MS);
    expect(n.list.map((x) => x.text)).toEqual(['could not keep a draft']);
    vi.advanceTimersByTime(60_000);
    expect(n.list).toHaveLength(1);
    n.dismiss(err.id);
    expect(n.list).toEqual([]);
    expect(changes).toBe(4);
  });

  it('stays while it is hovered or focused, and goes the usual delay after', () => {
    const n = new Notices(() => undefined);
    const saved = n.push('info', 'Saved SKILL.md');
    vi.advanceTimersByTime(INFO_MS - 100);
    n.hold(saved.id);
    vi.advanceTimersByTime(INFO_MS * 3);
    expect(n.list).toHaveLength(1);
    n.release(saved.id);
    vi.advanceTimersByTime(INFO_MS - 1);
    expect(n.list).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(n.list).toEqual([]);
  });

  it('the same text again replaces the older one (a second save does not pile up), at most three shown', () => {
    const n = new Notices(() => undefined);
    n.push('info', 'Saved SKILL.md');
    vi.advanceTimersByTime(INFO_MS - 100);
    n.push('info', 'Saved SKILL.md');
    expect(n.list).toHaveLength(1);
    vi.advanceTimersByTime(200);
    // The first one's timer does not take the second away.
    expect(n.list).toHaveLength(1);
    for (const t of ['a', 'b', 'c', 'd']) n.push('error', t);
    expect(n.list.map((x) => x.text)).toEqual(['b', 'c', 'd']);
    n.dispose();
  });
});

describe('reconcile: a file changed on disk while open', () => {
  const buffer = { text: 'mine', baseVersion: 'v1', dirty: true, conflicted: false };
  it('keeps the author’s edits apart from the disk’s until they choose', () => {
    expect(reconcile(buffer, { text: 'theirs', version: 'v1' })).toBe('unchanged');
    expect(reconcile(buffer, { text: 'mine', version: 'v2' })).toBe('same');
    expect(reconcile(buffer, { text: 'theirs', version: 'v2' })).toBe('conflict');
    expect(reconcile({ ...buffer, dirty: false }, { text: 'theirs', version: 'v2' })).toBe('reload');
    expect(reconcile({ ...buffer, dirty: false, conflicted: true }, { text: 'theirs', version: 'v3' })).toBe(
      'conflict',
    );
  });
});

describe('the skill and tab open last', () => {
  const store = new Map<string, string>();
  beforeEach(() => {
    store.clear();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
      key: (i: number) => [...store.keys()][i] ?? null,
      get length() {
        return store.size;
      },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('are kept per project, and forgotten when the author goes back to the list', () => {
    rememberOpen('/p/a', 'prereview', 'skill.toml');
    rememberOpen('/p/b', 'tidy', 'SKILL.md');
    expect(lastOpen('/p/a')).toMatchObject({ dir: 'prereview', file: 'skill.toml' });
    expect(lastOpen('/p/b')).toMatchObject({ dir: 'tidy', file: 'SKILL.md' });
    forgetOpen('/p/a');
    expect(lastOpen('/p/a')).toBeNull();
    store.set(`skillsmith.editor.last.v1\u0000/p/c`, '{not json');
    expect(lastOpen('/p/c')).toBeNull();
  });

  it('the first tab: the route, a draft handed in since, the remembered tab, then SKILL.md', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    expect(firstTab('/p', 'prereview', undefined)).toBe('SKILL.md');
    rememberOpen('/p', 'prereview', 'skill.toml');
    expect(firstTab('/p', 'prereview', undefined)).toBe('skill.toml');
    expect(firstTab('/p', 'other', undefined)).toBe('SKILL.md');
    expect(firstTab('/p', 'prereview', 'prompts/x.md')).toBe('prompts/x.md');
    // Another view hands in a draft after the tab was remembered: the draft's tab opens.
    vi.setSystemTime(new Date('2026-01-01T10:05:00Z'));
    saveDraft('/p', 'prereview', 'skill.spec.yml', 'schema: skillspec/v0\n');
    expect(firstTab('/p', 'prereview', undefined)).toBe('skill.spec.yml');
    // The author then picks a tab again: that one wins.
    vi.setSystemTime(new Date('2026-01-01T10:06:00Z'));
    rememberOpen('/p', 'prereview', 'SKILL.md');
    expect(firstTab('/p', 'prereview', undefined)).toBe('SKILL.md');
  });
});
