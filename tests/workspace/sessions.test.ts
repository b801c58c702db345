import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReviewStore } from '../../main/services/install/reviews';
import { readLock } from '../../main/services/lock';
import { reviewSource } from '../../main/services/install/preview';
import { cleanupTemps, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

const store = new ReviewStore();
const stagedDir = (id: string) => store.stagedOf(id)!.nodes[0]!.stagedDir!;

describe('reviewSource (preview of an uninstalled source)', () => {
  it('gives the same review install shows, the staged skill, and writes nothing', async () => {
    const p = temp();
    write(p, skillFiles('v/pre', 'pre'));
    const r = await reviewSource(p, 'file:./v/pre');
    try {
      expect(r.text).toMatch(/^review: pre@1\.0\.0 — /);
      expect(r.review.integrity).toMatch(/^sha256-/);
      expect(r.skill.manifest.skill.name).toBe('pre');
      expect(existsSync(join(p, '.kitbash'))).toBe(false);
    } finally {
      r.dispose();
    }
  });
});

describe('the review store (the approval dialog)', () => {
  it('begin returns the review with enforcement labels; approve needs its hash and works once', async () => {
    const p = temp();
    write(p, {
      'kitbash.toml': '[project]\ntargets = ["claude-code"]\n',
      ...skillFiles('v/one', 'one', { network: true }),
    });
    const { id, review } = await store.beginInstall(p, 'file:./v/one');
    for (const perm of review.nodes[0]!.permissions)
      expect(['enforced', 'advisory', 'unavailable']).toContain(perm.enforcement?.label);
    const dir = stagedDir(id);
    expect(existsSync(join(dir, 'SKILL.md'))).toBe(true);
    await expect(store.approveInstall(id, `sha256-${'f'.repeat(64)}`)).rejects.toThrow(
      /the approval names sha256-f+, but the review is/,
    );
    expect(existsSync(dir)).toBe(false); // a refused approval ends the session
    const again = await store.beginInstall(p, 'file:./v/one');
    const done = await store.approveInstall(again.id, again.review.integrity);
    expect(done.installed).toEqual(['one']);
    expect(done.notes.join('\n')).toMatch(/compiled for 1 target/);
    const lock = readLock(p);
    expect(lock.ok && lock.value.entries.map((e) => e.name)).toEqual(['one']);
    await expect(store.approveInstall(again.id, again.review.integrity)).rejects.toThrow(/expired or was already used/);
    expect(existsSync(join(p, '.kitbash', '.skillsmith.lock'))).toBe(false);
  });

  it('cancel throws the staged copy away and installs nothing', async () => {
    const p = temp();
    write(p, skillFiles('v/two', 'two'));
    const { id } = await store.beginInstall(p, 'file:./v/two');
    const dir = stagedDir(id);
    store.drop(id);
    expect(existsSync(dir)).toBe(false);
    expect(store.stagedOf(id)).toBeUndefined();
    expect(existsSync(join(p, '.kitbash', 'skills', 'two'))).toBe(false);
  });

  it('owns the lifetime: an expired review and every review on clear lose their staged copy', async () => {
    const p = temp();
    write(p, { ...skillFiles('v/three', 'three'), ...skillFiles('v/four', 'four') });
    let clock = 0;
    const timed = new ReviewStore(1000, () => clock);
    const old = await timed.beginInstall(p, 'file:./v/three');
    const oldDir = timed.stagedOf(old.id)!.nodes[0]!.stagedDir!;
    clock = 1001;
    expect(timed.get(old.id)).toBeUndefined();
    expect(existsSync(oldDir)).toBe(false);
    const kept = await timed.beginInstall(p, 'file:./v/four');
    const keptDir = timed.stagedOf(kept.id)!.nodes[0]!.stagedDir!;
    expect(existsSync(keptDir)).toBe(true);
    timed.clear();
    expect(timed.get(kept.id)).toBeUndefined();
    expect(existsSync(keptDir)).toBe(false);
  });
});
