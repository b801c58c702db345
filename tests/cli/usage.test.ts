/** Usage errors exit 2 with one line on stderr (SPEC §10.1, §10.6, D14, D15). */
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, cleanSkill, cleanup, cli, expectNoStack, tempProject } from './helpers';

let root = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempProject();
  cleanSkill(root, 'skills/clean', 'clean');
});
afterAll(cleanup);

function usage(...args: string[]): string {
  const r = cli(root, ...args);
  expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(2);
  expect(r.stdout).toBe('');
  expectNoStack(r);
  return r.stderr;
}

describe('usage errors', () => {
  it('an unknown flag', () => {
    const err = usage('lint', '--bogus', 'skills/clean');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain('--bogus');
  });

  it('an unknown short flag', () => {
    expect(usage('lint', '-z')).toContain('-z');
  });

  it('a flag missing its value', () => {
    const err = usage('lint', 'skills/clean', '--sarif');
    expect(err).toContain('--sarif');
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('an unknown command', () => {
    expect(usage('frobnicate')).toContain('frobnicate');
    expect(usage('deploy', 'x')).toContain('deploy');
  });

  it('--help after `--` belongs to the script, not to skillsmith', () => {
    const r = cli(root, 'run', 'no-such-skill', 'check', '--', '--help');
    expect(r.stdout).not.toContain('skillsmith run');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('no-such-skill');
    const help = cli(root, 'run', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('skillsmith run');
  });

  it('a nonexistent target: one line naming it', () => {
    const err = usage('lint', 'no-such-thing');
    expect(err.trim().split('\n')).toEqual([expect.stringContaining('no-such-thing')]);
    expect(err).toContain('not found as a path or installed skill name');
  });

  it('an absolute path that does not exist', () => {
    const missing = `${root}/definitely/not/here`;
    const err = usage('lint', missing);
    expect(err).toContain(missing);
    expect(err).toContain('not found');
  });

  it('a nonexistent target for test', () => {
    expect(usage('test', 'no-such-thing')).toContain('no-such-thing');
  });

  it('file:<path> that does not exist', () => {
    expect(usage('lint', 'file:nowhere')).toContain('file:nowhere');
  });

  it('one bad target among good ones stops the run before any report', () => {
    const r = cli(root, 'lint', 'skills/clean', 'no-such-thing');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it.each([
    'gh:owner/repo',
    'gh:owner/repo/sub@v1',
    'https://github.com/owner/repo',
    'ssh://git@github.com/owner/repo',
    'file:///etc',
    'git@github.com:owner/repo.git',
    'owner/repo',
  ])('a remote source is refused, not fetched: %s', (source) => {
    const before = readdirSync(root).sort();
    const err = usage('lint', source);
    expect(err).toContain(source);
    expect(err).toMatch(/remote/);
    expect(readdirSync(root).sort()).toEqual(before);
    expect(existsSync(`${root}/repo`)).toBe(false);
  });
});
