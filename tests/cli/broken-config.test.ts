/**
 * One exit-code model across the verbs (SPEC §10.7): every verb that reads the project stops
 * on a `kitbash.toml` that does not load, with one line naming the file and the documented
 * code — 1, or diff(1)'s 2 ("trouble") for `diff` — and writes nothing.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';
import { cleanup, cli, expectNoStack, requireBuiltCli, tempProject } from './helpers';

const BROKEN = 'targets = = "nowhere"\n';

/** Each project verb, with arguments that would otherwise do real work, and its code. */
const VERBS: ReadonlyArray<readonly [readonly string[], number]> = [
  [['lint'], 1],
  [['test'], 1],
  [['list'], 1],
  [['list', '--json'], 1],
  [['doctor'], 1],
  [['init'], 1],
  [['compile'], 1],
  [['matrix'], 1],
  [['verify', '--frozen', '--json'], 1],
  [['sbom', '--output', 'bom.json'], 1],
  [['import'], 1],
  [['update', '--yes'], 1],
  [['update', '--dry-run'], 1],
  [['outdated', '--json'], 1],
  [['lock', 'export', 'skills-lock'], 1],
  [['explain', 'api-style', 'claude-code'], 1],
  [['preview', 'api-style'], 1],
  [['remove', 'api-style', '--yes'], 1],
  [['install', 'file:.kitbash/skills/api-style', '--yes'], 1],
  [['eval', 'api-style'], 1],
  [['run', 'prereview', 'check'], 1],
  [['gate', 'prereview'], 1],
  [['diff', 'api-style'], 2],
];

let root = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempProject('skillsmith-broken-config-');
  cpSync(join(repoRoot, 'examples', 'workspace'), root, { recursive: true });
  writeFileSync(join(root, 'kitbash.toml'), BROKEN);
});
afterAll(cleanup);

describe('a malformed kitbash.toml', () => {
  for (const [args, code] of VERBS) {
    it(`${args.join(' ')} exits ${code} with one line naming kitbash.toml`, () => {
      const r = cli(root, ...args);
      expect(r.code).toBe(code);
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/kitbash\.toml:1:\d+: invalid TOML/);
      expectNoStack(r);
    });
  }

  it('stops a verb before it writes: remove keeps the skill, init keeps the file', () => {
    cli(root, 'remove', 'api-style', '--yes');
    cli(root, 'init');
    expect(existsSync(join(root, '.kitbash', 'skills', 'api-style', 'skill.toml'))).toBe(true);
    expect(readFileSync(join(root, 'kitbash.toml'), 'utf8')).toBe(BROKEN);
  });

  it('leaves the verbs that never read the project alone', () => {
    expect(cli(root, '--version').code).toBe(0);
    expect(cli(root, 'help').code).toBe(0);
    const merge = cli(root, 'eval', 'merge');
    expect(merge.stderr).not.toContain('kitbash.toml');
  });
});
