/** `skillsmith test` (SPEC §10.2, D13): names and paths, and the evals listing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, cleanSkill, cleanup, cli, parseJson, tempProject, writeFiles } from './helpers';

let root = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempProject();
  cleanSkill(root, 'work/with-evals', 'with-evals', {
    'evals/a.eval.yaml': 'tier: static\n',
    'evals/b.eval.yaml': 'tier: behavioral\nprompt: hi\n',
  });
  cleanSkill(root, 'work/no-evals', 'no-evals');
  cleanSkill(root, '.kitbash/skills/installed-one', 'installed-one', { 'evals/only.eval.yaml': 'tier: audit\n' });
});
afterAll(cleanup);

describe('skillsmith test', () => {
  it('accepts a path and lists the evals without running them', () => {
    const r = cli(root, 'test', 'work/with-evals');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^ {4}· evals — 2 eval files — static: a\.eval\.yaml; behavioral: b\.eval\.yaml; 1 audit\/behavioral\/trigger eval needs a runner — run it with "skillsmith eval"$/m,
    );
    expect(r.stdout).toContain('tested 1 skill(s) · 0 failure(s) · 0 warning(s) (static tier)');
  });

  it('has no evals check without evals/', () => {
    const skills = parseJson(cli(root, 'test', '--json', 'work/no-evals'));
    expect(skills[0]!.checks.map((c) => c.id)).not.toContain('evals');
  });

  it('puts evals last, after the lint checks', () => {
    const ids = parseJson(cli(root, 'test', '--json', 'work/with-evals'))[0]!.checks.map((c) => c.id);
    expect(ids[ids.length - 1]).toBe('evals');
    expect(ids.slice(0, -1)).toEqual(
      parseJson(cli(root, 'lint', '--json', 'work/with-evals'))[0]!.checks.map((c) => c.id),
    );
  });

  it('lint never reports evals', () => {
    expect(parseJson(cli(root, 'lint', '--json', 'work/with-evals'))[0]!.checks.map((c) => c.id)).not.toContain(
      'evals',
    );
  });

  it('accepts an installed name and several targets', () => {
    const r = cli(root, 'test', 'installed-one', 'work/no-evals');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ installed-one');
    expect(r.stdout).toContain('✓ no-evals');
    expect(r.stdout).toContain('tested 2 skill(s)');
  });

  it('rejects lint-only flags', () => {
    expect(cli(root, 'test', '--sarif', 'x.sarif', 'work/no-evals').code).toBe(2);
    expect(cli(root, 'test', '--schema', 'work/no-evals').code).toBe(2);
  });

  it('supports --strict: warnings fail the run', () => {
    writeFiles(root, { 'work/bare-t/SKILL.md': 'A bare skill: the manifest check warns.\n' });
    expect(cli(root, 'test', 'work/bare-t').code).toBe(0);
    const strict = cli(root, 'test', '--strict', 'work/bare-t');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('--strict: failing on 1 warning(s)');
  });
});
