import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledDrift } from '../../main/services/compile';
import { projectStatus } from '../../main/services/workspace/status';
import { cleanupTemps, cli, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

describe('projectStatus', () => {
  it('reports pins, drift, policy and MCP as data, and the same compiled drift as the compile service', async () => {
    const p = temp();
    write(p, {
      'kitbash.toml': '[project]\ntargets = ["claude-code", "agentsmd"]\n',
      ...skillFiles('v/a', 'aaa'),
      ...skillFiles('v/b', 'bbb', { write: true }),
      ...skillFiles('v/c', 'ccc'),
    });
    for (const s of ['a', 'b', 'c'])
      expect((await cli(p, 'install', `file:./v/${s}`, '--yes', '--no-compile')).code).toBe(0);
    expect((await cli(p, 'compile')).code).toBe(0);
    // A policy added afterwards is rechecked against what is installed.
    writeFileSync(
      join(p, 'kitbash.toml'),
      '[project]\ntargets = ["claude-code", "agentsmd"]\n\n[policy]\ndeny_write = true\n',
    );
    // One output edited, one skill removed by hand (its output goes stale), one never compiled.
    writeFileSync(join(p, '.claude', 'skills', 'aaa', 'SKILL.md'), 'edited by hand\n');
    rmSync(join(p, '.kitbash', 'skills', 'ccc'), { recursive: true });
    write(p, skillFiles('.kitbash/skills/ddd', 'ddd'));
    mkdirSync(join(p, '.kitbash', 'skills', 'empty'));

    const s = projectStatus(p);
    expect(s.compiledDrift).toEqual(compiledDrift(p).drift);
    expect(s.compiledDrift!.map((d) => d.kind).sort()).toEqual(expect.arrayContaining(['differs', 'missing', 'stale']));
    expect(s.skills.map((k) => [k.name, k.lock])).toEqual([
      ['aaa', 'ok'],
      ['bbb', 'ok'],
      ['ddd', 'unpinned'],
      ['empty', 'broken'],
    ]);
    expect(s.missing.map((e) => e.name)).toEqual(['ccc']);
    expect(s.policyViolations).toEqual([
      { skill: 'bbb', message: 'bbb declares write permission and deny_write = true' },
    ]);
    expect(s.skills[0]!.targetCost!.map((c) => c.target)).toEqual(['claude-code', 'agentsmd']);
    expect(projectStatus(p, { costs: false }).skills[0]!.targetCost).toBeUndefined();
    expect(s.standing.budgets).toBe(4500);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s); // plain data: survives IPC
  });

  it('a broken lock or config is a one-line error in the status, not an exception', () => {
    const p = temp();
    write(p, { 'kitbash.lock': '<<<<<<< ours\n', 'kitbash.toml': 'x = \n' });
    const s = projectStatus(p);
    expect(s.lockError).toMatch(/^kitbash\.lock:1:1: contains an unresolved merge-conflict marker/);
    expect(s.configError).toMatch(/^kitbash\.toml:1:\d+: invalid TOML/);
  });
});
