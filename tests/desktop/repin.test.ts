/**
 * Re-pinning from the dashboard, through the handler table as a window calls it: the
 * review is the install review of the folder as it is now, the approval names its hash, a
 * blocked review is refused whatever the window sends, and a folder changed since the
 * review pins nothing.
 */
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewView } from '../../shared/ipc/channels/install';
import type { RepinResult } from '../../shared/ipc/channels/lock';
import { parseLock } from '../../shared/lock/lockfile';
import { dispatch } from '../../main/ipc/dispatch';
import { verifySkill } from '../../main/services/lock';
import { scratch, testPlatform, testSession, type Scratch } from './helpers';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

function open() {
  const { session } = testSession(testPlatform(s.dataDir));
  session.open(s.project);
  const call = async <T>(channel: string, req: unknown): Promise<T> => {
    const r = await dispatch(channel, req, { session });
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  const refusal = async (channel: string, req: unknown) => {
    const r = await dispatch(channel, req, { session });
    return r.ok ? null : r.error;
  };
  return { session, call, refusal };
}

const lockEntry = (name: string) => {
  const l = parseLock(readFileSync(join(s.project, 'kitbash.lock'), 'utf8'));
  if (!l.ok) throw new Error('lock');
  return l.value.find((e) => e.name === name);
};
const lockText = () => readFileSync(join(s.project, 'kitbash.lock'), 'utf8');

describe('re-pin after review', () => {
  it('pins an edited skill as its files are now, as import:local, after the install review', async () => {
    const { session, call } = open();
    try {
      appendFileSync(
        join(s.project, '.kitbash/skills/release-notes/SKILL.md'),
        '\nAlso list breaking changes first.\n',
      );
      expect(verifySkill(s.project, 'release-notes')).toMatchObject({ ok: false, error: { reason: 'drift' } });
      const before = lockEntry('release-notes')!;

      const review = await call<ReviewView>('lock.review', { dir: 'release-notes' });
      expect(review.blockers).toEqual([]);
      expect(review.nodes[0]).toMatchObject({ name: 'release-notes', version: '1.2.0', role: 'requested' });
      // The same review object the install dialog shows: findings, permissions, files, the hash it approves.
      expect(review.nodes[0]!.files).toContain('.kitbash/skills/release-notes/SKILL.md');
      expect(review.nodes[0]!.permissions.length).toBeGreaterThan(0);
      expect(review.notices.join('\n')).toMatch(/files differ from what kitbash\.lock pinned/);
      expect(review.notices.join('\n')).toMatch(
        /instead of gh:skillsmith\/examples\/release-notes@v1.2.0: update no longer refetches it/,
      );
      // Nothing written by the review.
      expect(lockEntry('release-notes')).toEqual(before);

      const done = await call<RepinResult>('lock.repin', { id: review.id, integrity: review.integrity });
      expect(done).toMatchObject({ outcome: 'pinned', name: 'release-notes', version: '1.2.0' });
      expect(verifySkill(s.project, 'release-notes')).toMatchObject({ ok: true });
      const after = lockEntry('release-notes')!;
      expect(after.source).toBe('import:local');
      expect(after.integrity).toBe(review.nodes[0]!.integrity);
      expect(after.integrity).not.toBe(before.integrity);
      expect(after.resolved).toBeUndefined();
      expect(after.commit).toBeUndefined();
      // The other pins are untouched.
      expect(lockEntry('prereview')!.integrity).toBe(
        'sha256-fe1bbb5b1e6c1291feb333e23deceb120783d291bb5ad66e9af5f5793e0fe321',
      );
    } finally {
      session.dispose();
    }
  });

  it('pins a skill that was never pinned; [policy] blocks one that breaks it', async () => {
    const { session, call, refusal } = open();
    try {
      const dir = join(s.project, '.kitbash/skills/changelog');
      cpSync(join(s.project, '.kitbash/skills/release-notes'), dir, { recursive: true });
      const toml = join(dir, 'skill.toml');
      writeFileSync(toml, readFileSync(toml, 'utf8').replace('name = "release-notes"', 'name = "changelog"'));
      expect(lockEntry('changelog')).toBeUndefined();
      const review = await call<ReviewView>('lock.review', { dir: 'changelog' });
      expect(review.notices[0]).toMatch(/not in kitbash\.lock/);
      await call('lock.repin', { id: review.id, integrity: review.integrity });
      expect(lockEntry('changelog')).toMatchObject({ source: 'import:local', integrity: review.nodes[0]!.integrity });
      expect(verifySkill(s.project, 'changelog')).toMatchObject({ ok: true });

      // tidy-commits is bare: its default budget (6000) is over the project's max_budget (2000).
      const bare = await call<ReviewView>('lock.review', { dir: 'tidy-commits' });
      expect(bare.blockers).toEqual(['tidy-commits: policy: tidy-commits budget 6000 exceeds max_budget 2000']);
      expect(await refusal('lock.repin', { id: bare.id, integrity: bare.integrity })).toMatchObject({
        code: 'forbidden',
      });
      expect(lockEntry('tidy-commits')).toBeUndefined();
    } finally {
      session.dispose();
    }
  });

  it('refuses a blocked review, a wrong hash and an install review id; nothing is written', async () => {
    const { session, call, refusal } = open();
    try {
      appendFileSync(join(s.project, '.kitbash/skills/dependency-audit/SKILL.md'), '\nEdited.\n');
      const lock = lockText();
      const review = await call<ReviewView>('lock.review', { dir: 'dependency-audit' });
      // Its script pipes a download into a shell: a safety finding no approval lifts.
      expect(review.blockers.join('\n')).toMatch(/safety/);
      expect(await refusal('lock.repin', { id: review.id, integrity: review.integrity })).toMatchObject({
        code: 'forbidden',
      });
      expect(lockText()).toBe(lock);

      const ok = await call<ReviewView>('lock.review', { dir: 'release-notes' });
      const wrong = `sha256-${'0'.repeat(64)}`;
      expect(await refusal('lock.repin', { id: ok.id, integrity: wrong })).toMatchObject({ code: 'forbidden' });
      // A review made by the install flow is not a re-pin review.
      const src = join(s.dir, 'fresh-skill');
      mkdirSync(src);
      writeFileSync(
        join(src, 'SKILL.md'),
        '---\nname: fresh-skill\ndescription: Says hello when asked.\n---\nSay hello.\n',
      );
      const install = await call<ReviewView>('install.begin', { source: src });
      expect(await refusal('lock.repin', { id: install.id, integrity: install.integrity })).toMatchObject({
        code: 'not-found',
      });
      expect(lockText()).toBe(lock);
      expect(await refusal('lock.review', { dir: '../etc' })).toMatchObject({ code: 'invalid-request' });
      expect(await refusal('lock.review', { dir: 'no-such-skill' })).toMatchObject({ code: 'not-found' });
    } finally {
      session.dispose();
    }
  });

  it('pins nothing when the folder changed after the review, and answers with the new review', async () => {
    const { session, call } = open();
    try {
      const skill = join(s.project, '.kitbash/skills/release-notes/SKILL.md');
      appendFileSync(skill, '\nFirst edit.\n');
      const review = await call<ReviewView>('lock.review', { dir: 'release-notes' });
      appendFileSync(skill, '\nA second edit, after the review.\n');
      const lock = lockText();
      const r = await call<RepinResult>('lock.repin', { id: review.id, integrity: review.integrity });
      expect(r.outcome).toBe('changed');
      expect(lockText()).toBe(lock);
      if (r.outcome !== 'changed') return;
      expect(r.review.integrity).not.toBe(review.integrity);
      // The old review is used up; the new one pins.
      expect((await dispatch('lock.repin', { id: review.id, integrity: review.integrity }, { session })).ok).toBe(
        false,
      );
      await call('lock.repin', { id: r.review.id, integrity: r.review.integrity });
      expect(verifySkill(s.project, 'release-notes')).toMatchObject({ ok: true });
    } finally {
      session.dispose();
    }
  });
});
