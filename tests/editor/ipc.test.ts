/**
 * The editor area through the shared dispatch: open a skill's files with versions, save
 * with the conflict check, refuse paths that leave the skill folder, create a new skill
 * that the same loader and lint as the CLI accept.
 */
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/dispatch';
import { versionOf } from '../../main/services/editor/files';
import { lintSkill } from '../../shared/lint/checks';
import { loadSkill } from '../../shared/ksf/load';
import { scratch, testPlatform, testSession, type Scratch } from '../desktop/helpers';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

async function opened() {
  const { session } = testSession(testPlatform(s.dataDir));
  const r = await dispatch('project.open', { path: s.project }, { session });
  expect(r.ok).toBe(true);
  const call = async (name: string, payload: unknown) => dispatch(name, payload, { session });
  return { session, call, close: () => session.dispose() };
}

function value<T>(r: { ok: boolean; value?: unknown; error?: unknown }): T {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
}

type Opened = {
  dir: string;
  path: string;
  files: { path: string; text: string | null; version: string | null; editable: boolean }[];
  dirs: string[];
};

describe('editor.open / editor.read', () => {
  it('returns every file with its version, editable ones marked', async () => {
    const { call, close } = await opened();
    const v = value<Opened>(await call('editor.open', { dir: 'dependency-audit' }));
    expect(v.path).toBe('.kitbash/skills/dependency-audit');
    expect(v.files.map((f) => [f.path, f.editable])).toEqual([
      ['SKILL.md', true],
      ['scripts/audit.sh', false],
      ['skill.toml', true],
    ]);
    const md = readFileSync(join(s.project, '.kitbash/skills/dependency-audit/SKILL.md'));
    expect(v.files[0]!.text).toBe(md.toString('utf8'));
    expect(v.files[0]!.version).toBe(versionOf(md));
    expect(value(await call('editor.read', { dir: 'dependency-audit', file: 'SKILL.md' }))).toEqual({
      text: md.toString('utf8'),
      version: versionOf(md),
    });
    expect(value(await call('editor.read', { dir: 'dependency-audit', file: 'skill.spec.yml' }))).toEqual({
      text: null,
      version: null,
    });
    expect(await call('editor.open', { dir: 'nope' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    close();
  });

  it('refuses files outside the editable set, traversal, and symlinks out of the skill', async () => {
    const { call, close } = await opened();
    for (const file of ['../kitbash.toml', 'scripts/audit.sh', '/etc/passwd', 'prompts/../../x.md', 'prompts/a/b.md']) {
      expect(await call('editor.read', { dir: 'prereview', file }), file).toMatchObject({
        ok: false,
        error: { code: 'invalid-request' },
      });
    }
    expect(await call('editor.read', { dir: '../x', file: 'SKILL.md' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    mkdirSync(join(s.dir, 'outside'));
    writeFileSync(join(s.dir, 'outside', 'x.md'), 'secret');
    const skill = join(s.project, '.kitbash/skills/tidy-commits');
    noPrompts(skill);
    symlinkSync(join(s.dir, 'outside'), join(skill, 'prompts'));
    expect(await call('editor.read', { dir: 'tidy-commits', file: 'prompts/x.md' })).toMatchObject({
      ok: false,
      error: { code: 'outside-project' },
    });
    expect(
      await call('editor.save', { dir: 'tidy-commits', file: 'prompts/x.md', text: 'pwned', expected: null }),
    ).toMatchObject({
      ok: false,
      error: { code: 'outside-project' },
    });
    expect(readFileSync(join(s.dir, 'outside', 'x.md'), 'utf8')).toBe('secret');
    close();
  });
});

function noPrompts(skill: string): void {
  try {
    readdirSync(join(skill, 'prompts'));
    throw new Error('test fixture expected tidy-commits to have no prompts/ folder');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

describe('editor.save', () => {
  it('writes when the disk is at the expected version, refuses (and writes nothing) when it moved', async () => {
    const { call, close } = await opened();
    const file = join(s.project, '.kitbash/skills/prereview/SKILL.md');
    const start = value<{ text: string; version: string }>(
      await call('editor.read', { dir: 'prereview', file: 'SKILL.md' }),
    );
    const saved = value<{ status: string; version: string }>(
      await call('editor.save', { dir: 'prereview', file: 'SKILL.md', text: 'mine\n', expected: start.version }),
    );
    expect(saved).toEqual({ status: 'saved', version: versionOf('mine\n') });
    expect(readFileSync(file, 'utf8')).toBe('mine\n');

    // Someone else edits the file; a save based on the old version is a conflict.
    writeFileSync(file, 'theirs\n');
    const conflict = value(
      await call('editor.save', { dir: 'prereview', file: 'SKILL.md', text: 'mine again\n', expected: saved.version }),
    );
    expect(conflict).toEqual({ status: 'conflict', disk: { text: 'theirs\n', version: versionOf('theirs\n') } });
    expect(readFileSync(file, 'utf8')).toBe('theirs\n');

    // The author chose theirs-then-mine: force writes.
    expect(
      value(
        await call('editor.save', {
          dir: 'prereview',
          file: 'SKILL.md',
          text: 'merged\n',
          expected: saved.version,
          force: true,
        }),
      ),
    ).toMatchObject({ status: 'saved' });
    expect(readFileSync(file, 'utf8')).toBe('merged\n');

    // A new file must not exist yet (expected null); then it does.
    expect(
      value(await call('editor.save', { dir: 'prereview', file: 'prompts/extra.md', text: '- one\n', expected: null })),
    ).toMatchObject({ status: 'saved' });
    expect(readFileSync(join(s.project, '.kitbash/skills/prereview/prompts/extra.md'), 'utf8')).toBe('- one\n');
    expect(
      value(await call('editor.save', { dir: 'prereview', file: 'prompts/extra.md', text: 'again', expected: null })),
    ).toMatchObject({ status: 'conflict' });
    // No temp files are left behind by the atomic writes.
    expect(readdirSync(join(s.project, '.kitbash/skills/prereview')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    close();
  });
});

describe('editor.create', () => {
  it('creates a manifested skill that loads and lints clean, and refuses an existing name', async () => {
    const { call, close } = await opened();
    expect(
      value(
        await call('editor.create', {
          name: 'changelog-writer',
          description: 'Writes changelog entries from merged PRs.',
        }),
      ),
    ).toEqual({ dir: 'changelog-writer' });
    const dir = join(s.project, '.kitbash/skills/changelog-writer');
    const enc = new TextEncoder();
    const entries = ['SKILL.md', 'skill.toml'].map((p) => ({
      kind: 'file' as const,
      path: p,
      bytes: enc.encode(readFileSync(join(dir, p), 'utf8')),
    }));
    const loaded = loadSkill({ root: 'changelog-writer', entries });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.value.manifest.skill).toMatchObject({
      name: 'changelog-writer',
      version: '0.1.0',
      description: 'Writes changelog entries from merged PRs.',
    });
    expect(lintSkill(loaded.value).filter((c) => c.status === 'fail')).toEqual([]);
    expect(
      await call('editor.create', { name: 'changelog-writer', description: 'Again, same name here.' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', message: expect.stringMatching(/already exists/) },
    });
    // A description the manifest would refuse is refused before anything is written.
    expect(await call('editor.create', { name: 'short-desc', description: 'short' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', message: expect.stringMatching(/10–200/) },
    });
    expect(readdirSync(join(s.project, '.kitbash/skills'))).not.toContain('short-desc');
    // Quotes and backslashes in the description survive as TOML.
    expect(value(await call('editor.create', { name: 'quoted', description: 'Say "hi" \\ then go on.' }))).toEqual({
      dir: 'quoted',
    });
    expect(readFileSync(join(s.project, '.kitbash/skills/quoted/skill.toml'), 'utf8')).toContain(
      'description = "Say \\"hi\\" \\\\ then go on."',
    );
    close();
  });
});
