/** No-argument lint/test over .kitbash/skills/ (SPEC §10.1, D12). */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requireBuiltCli,
  cleanSkill,
  cleanup,
  cli,
  expectNoStack,
  parseJson,
  tempProject,
  writeFiles,
} from './helpers';

let root = '';
let empty = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempProject();
  const skills = '.kitbash/skills';
  cleanSkill(root, `${skills}/zeta`, 'zeta');
  cleanSkill(root, `${skills}/alpha-dir`, 'alpha');
  writeFiles(root, {
    [`${skills}/broken/SKILL.md`]: '# Broken\n',
    [`${skills}/broken/skill.toml`]:
      '[skill]\nname = "Broken"\nversion = "1.0.0"\ndescription = "A broken manifest here."\n[context]\nbudget = 1500\n',
    [`${skills}/no-skill-md/README.md`]: 'not a skill',
    [`${skills}/loose-file.md`]: 'plain files here are ignored',
    [`${skills}/.staging/SKILL.md`]: 'dot-folders are ignored: curl x | sh',
    [`${skills}/.hidden-skill/SKILL.md`]: 'also ignored',
  });
  const real = join(root, 'elsewhere', 'linked');
  mkdirSync(real, { recursive: true });
  writeFiles(real, { 'SKILL.md': 'A real skill, reached through a link.\n' });
  symlinkSync(real, join(root, skills, 'linked'));
  empty = tempProject();
});
afterAll(cleanup);

describe('lint with no target', () => {
  it('reports every installed entry; broken ones fail the manifest check (exit 1)', () => {
    const r = cli(root, 'lint', '--json');
    expect(r.code).toBe(1);
    const skills = parseJson(r);
    const byName = Object.fromEntries(skills.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(['alpha', 'broken', 'linked', 'no-skill-md', 'zeta']);
    for (const bad of ['broken', 'linked', 'no-skill-md']) {
      expect(byName[bad]!.checks, bad).toHaveLength(1);
      expect(byName[bad]!.checks[0]).toMatchObject({ id: 'manifest', status: 'fail' });
    }
    expect(byName.broken!.checks[0]!.detail).toContain('.kitbash/skills/broken/skill.toml: invalid manifest');
    expect(byName.broken!.checks[0]!.detail).toContain('  - skill.name "Broken" must match');
    expect(byName.broken!.manifested).toBe(true);
    expect(byName.linked!.checks[0]!.detail).toMatch(/symlink/);
    expect(byName['no-skill-md']!.checks[0]!.detail).toContain('SKILL.md');
    expect(byName.zeta!.checks[0]).toEqual({ id: 'manifest', status: 'pass', detail: 'zeta@1.0.0' });
  });

  it('orders by skill name (manifest name, not folder name)', () => {
    const names = parseJson(cli(root, 'lint', '--json')).map((s) => s.name);
    expect(names).toEqual(['alpha', 'broken', 'linked', 'no-skill-md', 'zeta']);
  });

  it('paths are relative to the project', () => {
    const skills = parseJson(cli(root, 'lint', '--json'));
    expect(skills.find((s) => s.name === 'alpha')!.path).toBe('.kitbash/skills/alpha-dir');
  });

  it('ignores dot-folders and loose files', () => {
    const r = cli(root, 'lint');
    expect(r.stdout).not.toContain('.staging');
    expect(r.stdout).not.toContain('hidden-skill');
    expect(r.stdout).not.toContain('loose-file');
    expect(r.stdout).toContain('linted 5 skill(s)');
    expectNoStack(r);
  });

  it('a broken skill prints its problem lines indented under one manifest line', () => {
    const lines = cli(root, 'lint').stdout.split('\n');
    const at = lines.findIndex((l) =>
      l.startsWith('    ✗ manifest — .kitbash/skills/broken/skill.toml: invalid manifest'),
    );
    expect(at).toBeGreaterThan(-1);
    expect(lines[at + 1]).toMatch(/^ +- skill\.name "Broken" must match/);
  });

  it('an installed skill can be named as a target', () => {
    const r = cli(root, 'lint', 'zeta');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ zeta');
  });

  it('nothing installed: says so, exit 0', () => {
    const r = cli(empty, 'lint');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('no skills installed — nothing to lint (pass a path to lint an uninstalled skill).\n');
    const t = cli(empty, 'test');
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('no skills installed — nothing to test');
  });
});

describe('test with no target', () => {
  it('tests every installed skill, reporting the static tier', () => {
    const r = cli(root, 'test');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/tested 5 skill\(s\) · \d+ failure\(s\) · \d+ warning\(s\) \(static tier\)/);
  });
});
