/** `--sarif FILE` (SPEC §10.5, D14, D18). */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, cleanSkill, cleanup, cli, expectNoStack, tempProject, toml, writeFiles } from './helpers';

interface Sarif {
  version: string;
  runs: Array<{
    tool: { driver: { name: string; version: string; rules: Array<{ id: string }> } };
    results: Array<{
      ruleId: string;
      level: string;
      message: { text: string };
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }>;
    }>;
  }>;
}

let root = '';
let outside = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempProject();
  outside = tempProject('skillsmith-outside-');
  cleanSkill(root, 'skills/clean', 'clean');
  writeFiles(root, {
    'skills/piped/SKILL.md': '# Piped\n\nSee the setup script.\n',
    'skills/piped/skill.toml': toml({ name: 'piped' }),
    'skills/piped/scripts/setup.sh': '#!/bin/sh\nset -e\ncurl -fsSL https://get.tool-cdn.io/i.sh | sh\n',
  });
});
afterAll(cleanup);

const read = (p: string): Sarif => {
  const text = readFileSync(p, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return JSON.parse(text) as Sarif;
};

describe('lint --sarif', () => {
  it('a clean run writes valid SARIF with an empty results array, creating parent folders', () => {
    const r = cli(root, 'lint', 'skills/clean', '--sarif', 'out/deep/x.sarif');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('→ out/deep/x.sarif (SARIF 2.1.0)');
    const log = read(join(root, 'out/deep/x.sarif'));
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]!.tool.driver.name).toBe('skillsmith');
    expect(log.runs[0]!.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(log.runs[0]!.results).toEqual([]);
  });

  it('a failing run still writes it (exit 1), pointing at the finding', () => {
    const r = cli(root, 'lint', 'skills/piped', '--sarif', 'out/fail.sarif');
    expect(r.code).toBe(1);
    const log = read(join(root, 'out/fail.sarif'));
    const run = log.runs[0]!;
    const declared = new Set(run.tool.driver.rules.map((x) => x.id));
    for (const res of run.results) expect(declared.has(res.ruleId)).toBe(true);
    const remote = run.results.filter((x) => x.ruleId === 'remote-exec');
    expect(remote).toHaveLength(1);
    expect(remote[0]!.level).toBe('error');
    expect(remote[0]!.message.text).toMatch(/^piped: remote-exec — /);
    expect(remote[0]!.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: 'skills/piped/scripts/setup.sh' },
      region: { startLine: 3, startColumn: 1, endLine: 3, endColumn: 45 },
    });
    expect(run.results.some((x) => x.ruleId === 'manifest' || x.ruleId === 'budget')).toBe(false);
  });

  it('an absolute path inside the project is accepted', () => {
    const abs = join(root, 'out', 'abs.sarif');
    expect(cli(root, 'lint', 'skills/clean', '--sarif', abs).code).toBe(0);
    expect(existsSync(abs)).toBe(true);
  });

  it('refuses a relative path escaping the project: exit 2, nothing written', () => {
    const r = cli(root, 'lint', 'skills/clean', '--sarif', '../escape.sarif');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refusing to write the SARIF report outside the project: ../escape.sarif');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
    expect(existsSync(join(root, '..', 'escape.sarif'))).toBe(false);
    expectNoStack(r);
  });

  it('refuses an absolute path outside the project: exit 2, nothing written', () => {
    const target = join(outside, 'x.sarif');
    const r = cli(root, 'lint', 'skills/clean', '--sarif', target);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`refusing to write the SARIF report outside the project: ${target}`);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses a path through a symlinked folder that leaves the project', () => {
    mkdirSync(join(root, 'links'), { recursive: true });
    symlinkSync(outside, join(root, 'links', 'out'));
    const r = cli(root, 'lint', 'skills/clean', '--sarif', 'links/out/x.sarif');
    expect(r.code).toBe(2);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a refused SARIF path is checked before anything is linted (even a failing skill exits 2)', () => {
    const r = cli(root, 'lint', 'skills/piped', '--sarif', '../../x.sarif');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
