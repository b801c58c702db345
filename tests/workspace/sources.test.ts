import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalSource, parseSource } from '../../shared/lock/source';
import { readCatalogs } from '../../shared/project/sources';
import { openSource, stageFolder, makeStagingDir } from '../../main/services/sources';
import { sweepLeftovers } from '../../main/services/sources/temp';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, gitAvailable, gitRepo, gitRun, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

describe('parseSource', () => {
  const none = () => false;
  it('reads gh:, owner/repo, git URLs with #ref:path, file: and existing paths', () => {
    expect(parseSource('gh:o/r/skills/x@v1', none)).toEqual({
      ok: true,
      value: {
        kind: 'github',
        raw: 'gh:o/r/skills/x@v1',
        value: 'o/r/skills/x@v1',
        owner: 'o',
        repo: 'r',
        subpath: 'skills/x',
        ref: 'v1',
      },
    });
    expect(parseSource('o/r', none)).toMatchObject({ ok: true, value: { kind: 'github', owner: 'o', repo: 'r' } });
    expect(parseSource('o/r', () => true)).toMatchObject({ ok: true, value: { kind: 'local', path: 'o/r' } });
    expect(parseSource('https://h/o/r.git#v2:skills/a', none)).toEqual({
      ok: true,
      value: {
        kind: 'git',
        raw: 'https://h/o/r.git#v2:skills/a',
        url: 'https://h/o/r.git',
        ref: 'v2',
        subpath: 'skills/a',
      },
    });
    expect(parseSource('ssh://git@h/r.git#:sub', none)).toMatchObject({
      ok: true,
      value: { kind: 'git', url: 'ssh://git@h/r.git', subpath: 'sub' },
    });
    expect(parseSource('file:///tmp/r.git', none)).toMatchObject({
      ok: true,
      value: { kind: 'git', url: 'file:///tmp/r.git' },
    });
    expect(parseSource('file:./x', none)).toMatchObject({ ok: true, value: { kind: 'local', path: './x' } });
    expect(parseSource('gh:not-a-repo', none)).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', message: expect.stringContaining('invalid source "gh:not-a-repo"') },
    });
  });
  it('canonical forms are what allow_sources matches', () => {
    const gh = parseSource('o/r@v1', none);
    if (gh.ok) expect(canonicalSource(gh.value)).toBe('gh:o/r@v1');
    const local = parseSource('file:./a/../b', none);
    if (local.ok) expect(canonicalSource(local.value, '/abs/b')).toBe('file:/abs/b');
  });
});

describe('[sources] catalogs', () => {
  it('reads strings and tables, and names a bad entry in one line', () => {
    expect(
      readCatalogs({ sources: { team: 'file:///x.git', pinned: { url: './v', ref: 'v1', path: 'skills' } } }),
    ).toEqual({
      ok: true,
      value: [
        { name: 'pinned', source: './v', ref: 'v1', path: 'skills' },
        { name: 'team', source: 'file:///x.git' },
      ],
    });
    expect(readCatalogs({ sources: { bad: 3 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', message: expect.stringContaining('[sources].bad') },
    });
    expect(readCatalogs({ sources: { t: { ref: 'x' } } })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', message: expect.stringContaining('needs url') },
    });
  });
});

/** Clones land in os.tmpdir(); each git test gets its own TMPDIR so parallel suites cannot disturb the count. */
const clones = () => readdirSync(tmpdir()).filter((d) => d.startsWith('skillsmith-clone-')).length;
let savedTmp: string | undefined;
function privateTmp(): void {
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = temp('skillsmith-tmpdir-');
}
function restoreTmp(): void {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
}

describe.skipIf(!requireOrSkip('git', gitAvailable()))('git sources (local bare repositories, file:// URLs)', () => {
  beforeEach(privateTmp);
  afterEach(restoreTmp);
  it('clones a subpath at a ref or at HEAD, and removes the clone', async () => {
    const repo = gitRepo({ ...skillFiles('skills/a', 'alpha', { version: '1.0.0' }) });
    repo.tag('v1.0.0');
    repo.commit({ ...skillFiles('skills/a', 'alpha', { version: '2.0.0' }), 'skills/a/inner/notes.md': 'nested' });
    const before = clones();
    const co = await openSource(`${repo.url}#v1.0.0:skills/a`, temp());
    try {
      expect(co.subpath).toBe('skills/a');
      expect(co.commit).toMatch(/^[0-9a-f]{40}$/);
      const s = await makeStagingDir();
      const dir = await stageFolder(co.skillDir, s.dir, 'alpha', 'x');
      expect(existsSync(join(dir, 'skill.toml'))).toBe(true);
      await s.dispose();
    } finally {
      await co.dispose();
    }
    const head = await openSource(`${repo.url}#:skills/a`, temp());
    try {
      const s = await makeStagingDir();
      const dir = await stageFolder(head.skillDir, s.dir, 'alpha', 'x');
      expect(existsSync(join(dir, 'inner', 'notes.md'))).toBe(true);
      expect(existsSync(join(dir, '.git'))).toBe(false);
      await s.dispose();
    } finally {
      await head.dispose();
    }
    expect(clones()).toBe(before);
  });

  it('a ref may be a branch or a commit id', async () => {
    const repo = gitRepo(skillFiles('', 'branchy', { version: '1.0.0' }));
    const first = gitRun(repo.work, 'rev-parse', 'HEAD');
    gitRun(repo.work, 'checkout', '--quiet', '-b', 'next');
    repo.commit(skillFiles('', 'branchy', { version: '2.0.0' }));
    gitRun(repo.work, 'push', '--quiet', repo.bare, 'next');
    const branch = await openSource(`${repo.url}#next`, temp());
    expect(readFileSync(join(branch.skillDir, 'skill.toml'), 'utf8')).toContain('version = "2.0.0"');
    await branch.dispose();
    const commit = await openSource(`${repo.url}#${first}`, temp());
    expect(commit.commit).toBe(first);
    await commit.dispose();
  });

  it('gives one-line errors for a missing repository, a bad ref, an escaping or missing subpath', async () => {
    const repo = gitRepo(skillFiles('skills/a', 'alpha'));
    const cwd = temp();
    const before = clones();
    const err = async (src: string) => {
      try {
        await (await openSource(src, cwd)).dispose();
        return 'no error';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(await err(`file://${cwd}/nope.git`)).toMatch(
      /^could not clone file:\/\/.*nope\.git — check that the repository exists/,
    );
    expect(await err(`${repo.url}#no-such-ref`)).toMatch(
      /^ref "no-such-ref" not found in file:\/\/.* \(not a branch, tag, or commit\)$/,
    );
    expect(await err(`${repo.url}#--orphan=x`)).toBe('ref "--orphan=x" is not a valid branch, tag, or commit name');
    expect(await err(`${repo.url}#:../../etc`)).toMatch(
      /^invalid subpath "\.\.\/\.\.\/etc": it escapes the repository/,
    );
    expect(await err(`${repo.url}#:skills/zzz`)).toMatch(/^path "skills\/zzz" not found in file:/);
    expect(await err('file:./missing')).toMatch(/^local path not found: /);
    for (const m of [await err(`${repo.url}#no-such-ref`)]) expect(m).not.toContain('\n');
    expect(clones()).toBe(before);
  });

  it('GitHub shorthand clones from SKILLSMITH_GITHUB_BASE (no network in tests)', async () => {
    const base = temp();
    const repo = gitRepo(skillFiles('', 'rooted'));
    mkdirSync(join(base, 'acme'));
    // owner/repo.git under the base
    spawnSync('git', ['clone', '--quiet', '--bare', repo.bare, join(base, 'acme', 'tools.git')]);
    process.env.SKILLSMITH_GITHUB_BASE = `file://${base}`;
    try {
      const co = await openSource('gh:acme/tools', temp());
      expect(existsSync(join(co.skillDir, 'SKILL.md'))).toBe(true);
      expect(co.canonical).toBe('gh:acme/tools');
      expect(co.sourceFor('x')).toMatch(/^gh:acme\/tools\/x@[0-9a-f]{40}$/);
      await co.dispose();
    } finally {
      delete process.env.SKILLSMITH_GITHUB_BASE;
    }
  });
});

describe('stale temp folders', () => {
  it('an unmarked (older) clone or staging folder is removed after a day, a fresh one is kept', async () => {
    const old = join(tmpdir(), `skillsmith-stage-test-old-${process.pid}`);
    const fresh = join(tmpdir(), `skillsmith-clone-test-fresh-${process.pid}`);
    mkdirSync(old, { recursive: true });
    mkdirSync(fresh, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    await sweepLeftovers();
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    rmSync(fresh, { recursive: true, force: true });
  });
});

describe('staging copies', () => {
  it('leaves out .git at every depth', async () => {
    const src = temp();
    write(src, {
      ...skillFiles('', 'gitty'),
      '.git/HEAD': 'x',
      'sub/.git/config': 'y',
      'sub/keep.md': 'z',
      'sub/deeper/.git': 'gitfile',
    });
    const s = await makeStagingDir();
    const dir = await stageFolder(src, s.dir, 'gitty', 'gitty');
    expect(existsSync(join(dir, '.git'))).toBe(false);
    expect(existsSync(join(dir, 'sub', '.git'))).toBe(false);
    expect(existsSync(join(dir, 'sub', 'deeper', '.git'))).toBe(false);
    expect(existsSync(join(dir, 'sub', 'keep.md'))).toBe(true);
    await s.dispose();
  });

  it('refuses a symlink that points outside the skill and enforces the caps', async () => {
    const src = temp();
    write(src, {
      ...skillFiles('', 'linky'),
      'ok-link': { symlink: 'SKILL.md' },
      'bad-link': { symlink: '../../etc/passwd' },
    });
    const s = await makeStagingDir();
    await expect(stageFolder(src, s.dir, 'linky', 'file:./linky')).rejects.toThrow(
      /^file:\.\/linky: symlink bad-link → \.\.\/\.\.\/etc\/passwd points outside the skill/,
    );
    const big = temp();
    write(big, skillFiles('', 'big'));
    for (let i = 0; i < 12; i++) writeFileSync(join(big, `f${i}.md`), 'x'.repeat(100));
    await expect(stageFolder(big, s.dir, 'big1', 'big', { maxFiles: 10, maxBytes: 1e9 })).rejects.toThrow(
      /holds more than 10 files/,
    );
    await expect(stageFolder(big, s.dir, 'big2', 'big', { maxFiles: 1000, maxBytes: 500 })).rejects.toThrow(
      /is larger than 500 bytes/,
    );
    await s.dispose();
  });
});
