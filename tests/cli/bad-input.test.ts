/**
 * Bad input never crashes the CLI: each problem is one line naming the file and what is
 * wrong (manifest errors add indented "  - " lines), and no stack trace is printed.
 */
import { chmodSync, mkdirSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../support/paths';
import {
  requireBuiltCli,
  cleanup,
  cli,
  cliAs,
  expectNoStack,
  parseJson,
  tempProject,
  toml,
  unprivileged,
  writeFiles,
} from './helpers';

let root = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempProject();
});
afterAll(cleanup);

/** The lines of the run's output that mention `needle`. */
function linesWith(r: RunResult, needle: string): string[] {
  return `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l.includes(needle));
}

/** Lint `target`: exit 1, one report line naming `file` and matching `problem`, no stack. */
function expectOneLine(
  target: string,
  file: string,
  problem: RegExp,
  user: { uid?: number; gid?: number } = {},
): string {
  const r = cliAs(user, root, 'lint', target);
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
  expectNoStack(r);
  const lines = linesWith(r, file);
  expect(lines, `lines naming ${file}:\n${r.stdout}${r.stderr}`).toHaveLength(1);
  expect(lines[0]).toMatch(problem);
  expect(lines[0]).toMatch(/^ {4}✗ manifest — /);
  const json = cliAs(user, root, 'lint', '--json', target);
  expect(json.code).toBe(1);
  const skills = parseJson(json);
  expect(skills).toHaveLength(1);
  expect(skills[0]!.version).toBeNull();
  expect(skills[0]!.checks).toHaveLength(1);
  expect(skills[0]!.checks[0]).toMatchObject({ id: 'manifest', status: 'fail' });
  expect(skills[0]!.checks[0]!.detail).not.toContain('\n');
  return lines[0]!;
}

describe('bad input: one line, no stack trace', () => {
  it('an unreadable SKILL.md (chmod 000; as root the CLI runs as nobody)', () => {
    writeFiles(root, { 'unreadable/SKILL.md': 'secret\n', 'unreadable/skill.toml': toml({ name: 'unreadable' }) });
    const file = join(root, 'unreadable', 'SKILL.md');
    chmodSync(root, 0o755);
    chmodSync(file, 0o000);
    try {
      expectOneLine('unreadable', 'unreadable/SKILL.md', /cannot be read \(permission denied\)/, unprivileged);
    } finally {
      chmodSync(file, 0o644);
    }
  });

  it('an unreadable sub-folder (chmod 000; as root the CLI runs as nobody)', () => {
    writeFiles(root, { 'locked/SKILL.md': 'ok\n', 'locked/private/x.md': 'x' });
    const dir = join(root, 'locked', 'private');
    chmodSync(root, 0o755);
    chmodSync(dir, 0o000);
    try {
      expectOneLine('locked', 'locked/private', /cannot be read \(permission denied\)/, unprivileged);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it('invalid TOML: file:line:column and the parser message', () => {
    writeFiles(root, {
      'badtoml/SKILL.md': '# x\n\nBody.\n',
      'badtoml/skill.toml': '[skill]\nname = "badtoml"\nversion = = "1.0.0"\n',
    });
    const line = expectOneLine('badtoml', 'badtoml/skill.toml', /badtoml\/skill\.toml:3:\d+: invalid TOML: \S/);
    expect(line).not.toContain('Invalid TOML document');
  });

  it('a duplicate key in skill.toml: file:line:column', () => {
    writeFiles(root, {
      'dupkey/SKILL.md': 'Body.\n',
      'dupkey/skill.toml': `${toml({ name: 'dupkey' })}\n[permissions]\nwrite = false\nwrite = true\n`,
    });
    expectOneLine('dupkey', 'dupkey/skill.toml', /dupkey\/skill\.toml:\d+:1: invalid TOML: /);
  });

  it('an invalid manifest: the first line plus indented "  - " problem lines', () => {
    writeFiles(root, {
      'badmanifest/SKILL.md': 'Body.\n',
      'badmanifest/skill.toml':
        '[skill]\nname = "badmanifest"\nversion = "1"\ndescription = "short"\n[context]\nbudget = 10\n',
    });
    const r = cli(root, 'lint', 'badmanifest');
    expect(r.code).toBe(1);
    expectNoStack(r);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.includes('badmanifest/skill.toml: invalid manifest'));
    expect(at).toBeGreaterThan(-1);
    expect(linesWith(r, 'badmanifest/skill.toml')).toHaveLength(1);
    expect(lines.slice(at + 1, at + 4).map((l) => l.trim())).toEqual([
      '- skill.version "1" is not semver',
      '- skill.description must be 10–200 characters',
      '- context.budget is required and must be 50–20000',
    ]);
    const detail = parseJson(cli(root, 'lint', '--json', 'badmanifest'))[0]!.checks[0]!.detail;
    expect(detail.split('\n')).toEqual([
      'badmanifest/skill.toml: invalid manifest',
      '  - skill.version "1" is not semver',
      '  - skill.description must be 10–200 characters',
      '  - context.budget is required and must be 50–20000',
    ]);
  });

  it('non-UTF-8 bytes in SKILL.md: file and byte offset', () => {
    writeFiles(root, {
      'latin1md/SKILL.md': Buffer.from([...Buffer.from('# Caf'), 0xe9, ...Buffer.from('\n\nBody.\n')]),
      'latin1md/skill.toml': toml({ name: 'latin1md' }),
    });
    const line = expectOneLine('latin1md', 'latin1md/SKILL.md', /UTF-8/);
    expect(line).toMatch(/byte/);
    expect(line).toMatch(/\b5\b/);
  });

  it('non-UTF-8 bytes in skill.toml: file and byte offset', () => {
    const text = toml({ name: 'latin1toml' });
    const at = text.indexOf('written');
    writeFiles(root, {
      'latin1toml/SKILL.md': 'Body.\n',
      'latin1toml/skill.toml': Buffer.concat([
        Buffer.from(text.slice(0, at)),
        Buffer.from([0xff]),
        Buffer.from(text.slice(at)),
      ]),
    });
    const line = expectOneLine('latin1toml', 'latin1toml/skill.toml', /UTF-8/);
    expect(line).toMatch(new RegExp(`\\b${Buffer.byteLength(text.slice(0, at))}\\b`));
  });

  it('a 50 MB SKILL.md is refused without being read, naming the file and the limit', () => {
    const dir = join(root, 'huge');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'skill.toml'), toml({ name: 'huge' }));
    const file = join(dir, 'SKILL.md');
    const fd = openSync(file, 'w');
    try {
      ftruncateSync(fd, 50 * 1024 * 1024);
    } finally {
      closeSync(fd);
    }
    try {
      const line = expectOneLine('huge', 'huge/SKILL.md', /8 MiB/);
      expect(line).toMatch(/50 MiB/);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('a folder without SKILL.md', () => {
    writeFiles(root, { 'noskill/README.md': 'not a skill\n', 'noskill/skill.toml': toml({ name: 'noskill' }) });
    const r = cli(root, 'lint', 'noskill');
    expect(r.code).toBe(1);
    expectNoStack(r);
    const lines = linesWith(r, 'SKILL.md');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ {4}✗ manifest — .*noskill/);
  });

  it('a path that does not exist: exit 2, one line naming it', () => {
    const r = cli(root, 'lint', 'nowhere-at-all');
    expect(r.code).toBe(2);
    expectNoStack(r);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('nowhere-at-all')]);
  });

  it('a symlinked SKILL.md: named, refused, never followed', () => {
    writeFiles(root, {
      'elsewhere/real.md': '# Real\n\nReal text.\n',
      'linkedmd/skill.toml': toml({ name: 'linkedmd' }),
      'linkedmd/SKILL.md': { symlink: '../elsewhere/real.md' },
    });
    expectOneLine('linkedmd', 'linkedmd/SKILL.md', /symlink/);
  });

  it('a dangling symlinked SKILL.md', () => {
    writeFiles(root, { 'dangling/SKILL.md': { symlink: './does-not-exist.md' } });
    const r = cli(root, 'lint', 'dangling');
    expect(r.code).toBe(1);
    expectNoStack(r);
    expect(linesWith(r, 'dangling/SKILL.md')).toHaveLength(1);
  });

  it('deep nesting (40 levels): no crash; any refusal is one line naming the path', () => {
    const deep = Array.from({ length: 40 }, (_v, i) => `d${i}`).join('/');
    writeFiles(root, {
      'deep/SKILL.md': '# Deep\n\nA skill with a deep tree.\n',
      'deep/skill.toml': toml({ name: 'deep' }),
      [`deep/${deep}/leaf.md`]: 'leaf\n',
    });
    const r = cli(root, 'lint', 'deep');
    expectNoStack(r);
    expect([0, 1]).toContain(r.code);
    if (r.code === 1) {
      const fails = r.stdout.split('\n').filter((l) => /^ {4}✗ /.test(l));
      expect(fails).toHaveLength(1);
      expect(fails[0]).toMatch(/^ {4}✗ manifest — deep\//);
    }
  });

  it('a plain file as the target', () => {
    writeFiles(root, { 'notes.txt': 'hello\n' });
    const r = cli(root, 'lint', 'notes.txt');
    expect(r.code).toBe(1);
    expectNoStack(r);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('    ') && l.includes('notes.txt'))).toEqual([
      expect.stringMatching(/^ {4}✗ manifest — notes\.txt: /),
    ]);
  });

  it('a skill with a symlink loop inside is linted (the link is reported, not followed)', () => {
    writeFiles(root, {
      'looped/SKILL.md': 'Body.\n',
      'looped/skill.toml': toml({ name: 'looped' }),
      'looped/loop': { symlink: '.' },
    });
    const r = cli(root, 'lint', '--json', 'looped');
    expect(r.code).toBe(1);
    expectNoStack(r);
    const vt = parseJson(r)[0]!.checks.find((c) => c.id === 'visible-text')!;
    expect(vt.status).toBe('fail');
    expect(vt.locations).toEqual([{ file: 'loop', line: 1, column: 1, endLine: 1, endColumn: 1 }]);
  });
});
