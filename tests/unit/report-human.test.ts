import { describe, expect, it } from 'vitest';
import { renderHuman } from '../../shared/lint/report/human';
import { exitCodeFor, totals, type SkillReport } from '../../shared/lint/report/model';

const clean: SkillReport = {
  name: 'clean',
  version: '1.0.0',
  path: 'skills/clean',
  manifested: true,
  checks: [
    { id: 'manifest', status: 'pass', detail: 'clean@1.0.0' },
    { id: 'references', status: 'pass' },
  ],
};
const warned: SkillReport = {
  name: 'warned',
  version: '0.0.0',
  path: 'skills/warned',
  manifested: false,
  checks: [
    { id: 'manifest', status: 'warn', detail: 'unmanifested (SKILL.md only) — defaults applied' },
    { id: 'references', status: 'pass', detail: '' },
  ],
};
const failed: SkillReport = {
  name: 'failed',
  version: null,
  path: 'skills/failed',
  manifested: true,
  checks: [
    {
      id: 'manifest',
      status: 'fail',
      detail:
        'skills/failed/skill.toml: invalid manifest\n  - skill.version "1" is not semver\n  - context.budget is required and must be 50–20000',
    },
  ],
};
const mixed: SkillReport = {
  name: 'mixed',
  version: '1.0.0',
  path: 'skills/mixed',
  manifested: true,
  checks: [
    { id: 'manifest', status: 'pass', detail: 'mixed@1.0.0' },
    { id: 'injection', status: 'warn', detail: 'heuristic match — review: role reassignment' },
    { id: 'secrets', status: 'fail', detail: 'hardcoded credential: GitHub token (x:1:1)' },
  ],
};

describe('renderHuman (SPEC §10.3)', () => {
  it('prints a mark per skill, one line per check, and the totals', () => {
    expect(renderHuman([clean, warned, mixed], totals([clean, warned, mixed]), 'linted')).toBe(
      [
        '✓ clean',
        '    · manifest — clean@1.0.0',
        '    · references',
        '⚠ warned',
        '    ⚠ manifest — unmanifested (SKILL.md only) — defaults applied',
        '    · references',
        '✗ mixed',
        '    · manifest — mixed@1.0.0',
        '    ⚠ injection — heuristic match — review: role reassignment',
        '    ✗ secrets — hardcoded credential: GitHub token (x:1:1)',
        '',
        'linted 3 skill(s) · 1 failure(s) · 2 warning(s)',
        '',
      ].join('\n'),
    );
  });

  it('the test verb adds (static tier)', () => {
    expect(
      renderHuman([clean], totals([clean]), 'tested')
        .trimEnd()
        .split('\n')
        .pop(),
    ).toBe('tested 1 skill(s) · 0 failure(s) · 0 warning(s) (static tier)');
  });

  it('indents the continuation lines of a multi-line detail under the check', () => {
    const out = renderHuman([failed], totals([failed]), 'linted').split('\n');
    expect(out.slice(0, 4)).toEqual([
      '✗ failed',
      '    ✗ manifest — skills/failed/skill.toml: invalid manifest',
      '        - skill.version "1" is not semver',
      '        - context.budget is required and must be 50–20000',
    ]);
  });

  it('prints only the totals when there are no reports', () => {
    expect(renderHuman([], totals([]), 'linted')).toBe('\nlinted 0 skill(s) · 0 failure(s) · 0 warning(s)\n');
  });
});

describe('totals and exitCodeFor (SPEC §10.6)', () => {
  it('counts checks, not skills', () => {
    const twoFails: SkillReport = { ...mixed, checks: [...mixed.checks, { id: 'remote-exec', status: 'fail' }] };
    expect(totals([twoFails, warned])).toEqual({ skills: 2, failures: 2, warnings: 2 });
  });

  it('0 clean, 1 on failures, 1 on warnings only under strict', () => {
    expect(exitCodeFor({ skills: 1, failures: 0, warnings: 0 }, true)).toBe(0);
    expect(exitCodeFor({ skills: 1, failures: 0, warnings: 3 }, false)).toBe(0);
    expect(exitCodeFor({ skills: 1, failures: 0, warnings: 3 }, true)).toBe(1);
    expect(exitCodeFor({ skills: 1, failures: 1, warnings: 0 }, false)).toBe(1);
  });
});
