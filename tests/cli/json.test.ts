/** `--json` (SPEC §10.4): stdout is exactly one JSON array in report order. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, cleanSkill, cleanup, cli, parseJson, tempProject, toml, writeFiles } from './helpers';

let root = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempProject();
  cleanSkill(root, 'skills/clean', 'clean');
  writeFiles(root, {
    'skills/bare-one/SKILL.md': 'A bare skill.\n',
    'skills/leaky/SKILL.md': '# Leaky\n\nUses the token in scripts.\n',
    'skills/leaky/skill.toml': toml({ name: 'leaky' }),
    'skills/leaky/scripts/x.sh': `#!/bin/sh\n\nexport T=ghp_${'aB3'.repeat(12)}\n`,
  });
});
afterAll(cleanup);

describe('lint --json', () => {
  it('prints the documented shape, one object per skill in target order', () => {
    const r = cli(root, 'lint', '--json', 'skills/clean', 'skills/bare-one', 'skills/leaky');
    expect(r.code).toBe(1);
    const skills = parseJson(r);
    expect(skills.map((s) => [s.name, s.version, s.path, s.manifested])).toEqual([
      ['clean', '1.0.0', 'skills/clean', true],
      ['bare-one', '0.0.0', 'skills/bare-one', false],
      ['leaky', '1.0.0', 'skills/leaky', true],
    ]);
    for (const s of skills) {
      expect(Object.keys(s).sort()).toEqual(['checks', 'manifested', 'name', 'path', 'version']);
      for (const c of s.checks) {
        expect(['pass', 'warn', 'fail']).toContain(c.status);
        expect(typeof c.id).toBe('string');
        for (const k of Object.keys(c)) expect(['id', 'status', 'detail', 'locations']).toContain(k);
      }
    }
    expect(skills[0]!.checks.map((c) => c.id)).toEqual([
      'manifest',
      'references',
      'budget',
      'standing',
      'visible-text',
    ]);
    expect(skills[0]!.checks[0]).toEqual({ id: 'manifest', status: 'pass', detail: 'clean@1.0.0' });
  });

  it('carries 1-based locations pointing into the skill, with / separators', () => {
    const skills = parseJson(cli(root, 'lint', '--json', 'skills/leaky'));
    const secrets = skills[0]!.checks.find((c) => c.id === 'secrets')!;
    expect(secrets.status).toBe('fail');
    expect(secrets.detail).toContain('GitHub token');
    expect(secrets.locations).toEqual([{ file: 'scripts/x.sh', line: 3, column: 10, endLine: 3, endColumn: 50 }]);
  });

  it('stdout is pure JSON: nothing before or after the array', () => {
    const r = cli(root, 'lint', '--json', 'skills/clean');
    expect(r.stdout.startsWith('[')).toBe(true);
    expect(r.stdout.trimEnd().endsWith(']')).toBe(true);
    expect(r.stdout).not.toContain('linted ');
    parseJson(r);
  });

  it('stays pure JSON with --sarif: the notice goes to stderr', () => {
    const r = cli(root, 'lint', '--json', '--sarif', 'out/report.sarif', 'skills/clean');
    expect(r.code).toBe(0);
    parseJson(r);
    expect(r.stderr).toContain('out/report.sarif');
    expect(r.stdout).not.toContain('SARIF');
  });

  it('stays pure JSON with --strict: the strict notice is not on stdout', () => {
    const r = cli(root, 'lint', '--json', '--strict', 'skills/bare-one');
    expect(r.code).toBe(1);
    parseJson(r);
    expect(r.stdout).not.toContain('--strict');
  });

  it('test --json has the same shape', () => {
    const r = cli(root, 'test', '--json', 'skills/clean');
    expect(r.code).toBe(0);
    expect(parseJson(r)[0]!.name).toBe('clean');
  });
});

describe('lint --json: locations and failed loads', () => {
  it('omits locations when a check has none, even when the finding only exists once templates are resolved', () => {
    writeFiles(root, {
      'skills/dyn/SKILL.md': 'Load !{{artifact.plan}} now.\n',
      'skills/dyn/skill.toml': toml({ name: 'dyn' }),
    });
    const r = cli(root, 'lint', '--json', 'skills/dyn');
    expect(r.code).toBe(1);
    const [s] = parseJson(r);
    const dyn = s!.checks.find((c) => c.id === 'dynamic-context')!;
    expect(dyn.status).toBe('fail');
    expect(dyn.detail).toContain('once templates are resolved');
    for (const c of s!.checks) expect('locations' in c, c.id).toBe(false);
  });

  it('every check has a detail string, empty when there is none', () => {
    const [s] = parseJson(cli(root, 'lint', '--json', 'skills/clean'));
    expect(s!.checks.find((c) => c.id === 'references')).toEqual({ id: 'references', status: 'pass', detail: '' });
  });

  it('a skill that failed to load: version null, its folder name, one failing manifest check located at the TOML error', () => {
    writeFiles(root, {
      'skills/Bad_Folder/SKILL.md': 'x',
      'skills/Bad_Folder/skill.toml': '[skill]\nname = "x"\nname = "y"\n',
    });
    const [s] = parseJson(cli(root, 'lint', '--json', 'skills/Bad_Folder'));
    expect(s).toEqual({
      name: 'Bad_Folder',
      version: null,
      path: 'skills/Bad_Folder',
      manifested: true,
      checks: [
        {
          id: 'manifest',
          status: 'fail',
          detail: expect.stringMatching(/^skills\/Bad_Folder\/skill\.toml:3:1: invalid TOML: /),
          locations: [{ file: 'skill.toml', line: 3, column: 1, endLine: 3, endColumn: 1 }],
        },
      ],
    });
  });
});
