import { describe, expect, it } from 'vitest';
import { evalsCheck } from '../../shared/lint/evals';
import { DIR, loaded, manifested } from './helpers';

const evals = (files: Record<string, string | Uint8Array | { dir: true }>) =>
  evalsCheck(loaded(manifested('Body', files)));

describe('evalsCheck (SPEC §9.1 #17, §10.2)', () => {
  it('is absent without an evals/ folder', () => {
    expect(evals({})).toBeUndefined();
    expect(evals({ 'other/x.eval.yaml': 'tier: static' })).toBeUndefined();
  });

  it('passes an empty evals/ folder, saying so', () => {
    expect(evals({ evals: DIR })).toEqual({ id: 'evals', status: 'pass', detail: 'evals/ holds no *.eval.yaml files' });
  });

  it('lists eval files by tier; static-only needs no runner', () => {
    expect(evals({ 'evals/a.eval.yaml': 'tier: static\n', 'evals/b.eval.yaml': 'tier: static\nname: b\n' })).toEqual({
      id: 'evals',
      status: 'pass',
      detail: '2 eval files — static: a.eval.yaml, b.eval.yaml',
    });
  });

  it('a valid file next to a broken one is still listed', () => {
    const c = evals({ 'evals/good.eval.yaml': 'tier: static', 'evals/bad.eval.yaml': 'tier: nope' });
    expect(c?.status).toBe('warn');
    expect(c?.detail).toMatch(/^2 eval files — static: good\.eval\.yaml; evals\/bad\.eval\.yaml: tier must be one of/);
  });

  it('says how many audit/behavioral evals were not run', () => {
    const c = evals({
      'evals/a.eval.yaml': 'tier: audit',
      'evals/b.eval.yaml': 'tier: behavioral',
      'evals/c.eval.yaml': 'tier: static',
    });
    expect(c?.status).toBe('pass');
    expect(c?.detail).toBe(
      '3 eval files — static: c.eval.yaml; audit: a.eval.yaml; behavioral: b.eval.yaml; 2 audit/behavioral/trigger evals need a runner — run them with "skillsmith eval"',
    );
  });

  it('ignores files that are not *.eval.yaml and nested folders', () => {
    expect(
      evals({ 'evals/readme.md': 'x', 'evals/x.eval.yml': 'tier: static', 'evals/nested/y.eval.yaml': 'tier: static' })
        ?.detail,
    ).toBe('evals/ holds no *.eval.yaml files');
  });

  it('names a file with an unknown or missing tier', () => {
    const c = evals({ 'evals/a.eval.yaml': 'tier: magic', 'evals/b.eval.yaml': 'name: no tier' });
    expect(c?.status).toBe('warn');
    expect(c?.detail).toContain(
      'evals/a.eval.yaml: tier must be one of static, audit, behavioral, trigger (got "magic")',
    );
    expect(c?.detail).toContain('evals/b.eval.yaml: tier must be one of static, audit, behavioral, trigger');
  });

  it('names a file that is not YAML or not UTF-8', () => {
    const c = evals({ 'evals/a.eval.yaml': 'tier: [unclosed', 'evals/b.eval.yaml': new Uint8Array([0x74, 0xff]) });
    expect(c?.status).toBe('warn');
    expect(c?.detail).toContain('evals/a.eval.yaml: invalid YAML');
    expect(c?.detail).toContain('evals/b.eval.yaml: not valid UTF-8');
  });

  it('never executes anything: a command in an eval file is only listed', () => {
    const c = evals({ 'evals/run.eval.yaml': 'tier: behavioral\nrun: touch /tmp/skillsmith-evals-must-not-run\n' });
    expect(c?.detail).toContain('needs a runner — run it with "skillsmith eval"');
  });
});
