/**
 * The handler table through the shared dispatch, as any transport calls it: payloads are
 * validated, errors come back typed, and no path from the renderer reaches the disk
 * without being resolved inside the open project.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/dispatch';
import { CodedError } from '../../shared/result';
import { HANDLERS, type HandlerTable } from '../../main/ipc/table';
import { listChannels } from '../../shared/ipc/contract';
import { AbsolutePath, ProjectRelativePath, SkillName } from '../../shared/ipc/schemas';
import { scratch, testPlatform, testSession, type Scratch } from './helpers';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

const ctxFor = (pickFolder?: () => Promise<string | null>) => {
  const platform = testPlatform(
    s.dataDir,
    pickFolder ? { pickFolder, capabilities: { pickFolder: true, nativeMenus: true } } : {},
  );
  return { ...testSession(platform), platform };
};

describe('dispatch', () => {
  it('refuses unknown channels, non-object payloads and unknown fields', async () => {
    const { session } = ctxFor();
    expect(await dispatch('project.delete', {}, { session })).toEqual({
      ok: false,
      error: { code: 'unknown-channel', message: 'unknown channel: project.delete' },
    });
    expect(await dispatch('__proto__', {}, { session })).toMatchObject({
      ok: false,
      error: { code: 'unknown-channel' },
    });
    expect(await dispatch('app.info', 'x', { session })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    expect(await dispatch('app.info', { extra: 1 }, { session })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    const bad = await dispatch('project.open', { path: 42 }, { session });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(bad.ok ? '' : bad.error.message).toMatch(/^project\.open: path: /);
  });

  it('maps a CodedError through the code table and anything else to internal, never throwing', async () => {
    const { session } = ctxFor();
    const table = {
      ...HANDLERS,
      app: {
        ...HANDLERS.app,
        info: () => {
          throw new CodedError('forbidden', 'nope');
        },
        pickFolder: () => {
          throw new CodedError('invalid-input', 'kitbash.toml:1:2: invalid TOML: bad');
        },
        recentProjects: () => {
          throw new TypeError('boom');
        },
      },
    } as HandlerTable;
    expect(await dispatch('app.info', {}, { session }, table)).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'nope' },
    });
    // invalid-input is the one code the contract does not tell apart: the renderer sees invalid-request.
    expect(await dispatch('app.pickFolder', {}, { session }, table)).toEqual({
      ok: false,
      error: { code: 'invalid-request', message: 'kitbash.toml:1:2: invalid TOML: bad' },
    });
    expect(await dispatch('app.recentProjects', {}, { session }, table)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'app.recentProjects: boom' },
    });
  });

  it('validates what a handler answers against the response schema', async () => {
    const { session } = ctxFor();
    const table = { ...HANDLERS, app: { ...HANDLERS.app, info: () => ({ version: 1 }) } } as unknown as HandlerTable;
    const r = await dispatch('app.info', {}, { session }, table);
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid-response' } });
  });
});

describe('field schemas', () => {
  it.each(['../x', 'a/b', 'a\\b', '.hidden', '', 'A', 'x\0', 'a', '0day', 'a'.repeat(42)])(
    'SkillName refuses %j',
    (v) => {
      expect(SkillName.safeParse(v).success).toBe(false);
    },
  );
  it.each(['prereview', 'ab', 'tidy-commits', 'a'.repeat(41)])('SkillName accepts %j', (v) => {
    expect(SkillName.safeParse(v).success).toBe(true);
  });
  it.each(['relative/dir', '', '~/x', '/tmp/\0x', 'C:'])('AbsolutePath refuses %j', (v) => {
    expect(AbsolutePath.safeParse(v).success).toBe(false);
  });
  it.each(['../etc/passwd', 'a/../../b', '/etc/passwd', 'a\\b', 'C:/x', 'x\0'])(
    'ProjectRelativePath refuses %j',
    (v) => {
      expect(ProjectRelativePath.safeParse(v).success).toBe(false);
    },
  );

  it('every channel whose request names a skill folder uses the SkillName rule for it', () => {
    const named = listChannels().filter((c) => {
      const shape = (c.def.request as unknown as { shape?: Record<string, unknown> }).shape;
      return shape !== undefined && 'dir' in shape;
    });
    expect(named.map((c) => c.name)).toContain('skills.get');
    for (const c of named) {
      const field = (
        c.def.request as unknown as { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> }
      ).shape.dir!;
      for (const dir of ['../../etc', '..', 'prereview/../../x', '/etc', 'a\\b', ''])
        expect(field.safeParse(dir).success, `${c.name} dir=${dir}`).toBe(false);
      expect(field.safeParse('prereview').success, c.name).toBe(true);
    }
  });

  it('skills.get refuses traversal before touching the disk', async () => {
    const { session } = ctxFor();
    await dispatch('project.open', { path: s.project }, { session });
    for (const dir of ['../../etc', '..', 'prereview/../../x', '/etc']) {
      expect(await dispatch('skills.get', { dir }, { session }), dir).toMatchObject({
        ok: false,
        error: { code: 'invalid-request' },
      });
    }
  });
});

describe('handlers', () => {
  it('project.* need an open project, open only existing folders and record them as recent', async () => {
    const { session, platform } = ctxFor();
    expect(await dispatch('project.dashboard', {}, { session })).toMatchObject({
      ok: false,
      error: { code: 'no-project' },
    });
    expect(await dispatch('project.open', { path: join(s.dir, 'missing') }, { session })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    writeFileSync(join(s.dir, 'file.txt'), 'x');
    expect(await dispatch('project.open', { path: join(s.dir, 'file.txt') }, { session })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    expect(await dispatch('project.open', { path: s.project }, { session })).toEqual({
      ok: true,
      value: { root: s.project, name: 'workspace' },
    });
    expect(await dispatch('project.current', {}, { session })).toEqual({
      ok: true,
      value: { project: { root: s.project, name: 'workspace' } },
    });
    expect(platform.recent.list().map((r) => r.path)).toEqual([s.project]);
    const d = await dispatch('project.dashboard', {}, { session });
    expect(d.ok).toBe(true);
    expect(await dispatch('project.close', {}, { session })).toEqual({ ok: true, value: { closed: true } });
    expect(platform.hub.size).toBe(0);
    expect(await dispatch('project.dashboard', {}, { session })).toMatchObject({
      ok: false,
      error: { code: 'no-project' },
    });
  });

  it('project.open resolves symlinks to the real folder', async () => {
    const { session } = ctxFor();
    symlinkSync(s.project, join(s.dir, 'link'));
    expect(await dispatch('project.open', { path: join(s.dir, 'link') }, { session })).toEqual({
      ok: true,
      value: { root: s.project, name: 'workspace' },
    });
  });

  it('skills.get reads only installed skills inside the open project', async () => {
    const { session } = ctxFor();
    await dispatch('project.open', { path: s.project }, { session });
    const r = await dispatch('skills.get', { dir: 'dependency-audit' }, { session });
    expect(r.ok).toBe(true);
    const v = (
      r as {
        value: { path: string; files: { path: string }[]; checks: { id: string; status: string }[]; skillMd: string };
      }
    ).value;
    expect(v.path).toBe('.kitbash/skills/dependency-audit');
    expect(v.files.map((f) => f.path)).toEqual(['SKILL.md', 'scripts/audit.sh', 'skill.toml']);
    expect(v.checks.find((c) => c.id === 'remote-exec')?.status).toBe('fail');
    expect(v.skillMd).toMatch(/^# Dependency audit/);
    expect(await dispatch('skills.get', { dir: 'nope' }, { session })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });

    // A symlinked skill folder that leads out of the project is refused, not followed.
    mkdirSync(join(s.dir, 'outside'));
    writeFileSync(join(s.dir, 'outside', 'SKILL.md'), 'secret');
    symlinkSync(join(s.dir, 'outside'), join(s.project, '.kitbash/skills/escape'));
    expect(await dispatch('skills.get', { dir: 'escape' }, { session })).toMatchObject({
      ok: false,
      error: { code: 'outside-project' },
    });
  });

  it('app.pickFolder is unsupported without a native dialog, and returns the choice with one', async () => {
    const web = ctxFor();
    expect(await dispatch('app.pickFolder', {}, { session: web.session })).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    const native = ctxFor(async () => '/chosen/folder');
    expect(await dispatch('app.pickFolder', {}, { session: native.session })).toEqual({
      ok: true,
      value: { path: '/chosen/folder' },
    });
    expect(await dispatch('app.info', {}, { session: native.session })).toMatchObject({
      ok: true,
      value: { capabilities: { pickFolder: true } },
    });
  });

  it('app.forgetRecent drops a path', async () => {
    const { session } = ctxFor();
    await dispatch('project.open', { path: s.project }, { session });
    expect(await dispatch('app.forgetRecent', { path: s.project }, { session })).toEqual({
      ok: true,
      value: { projects: [] },
    });
  });
});
