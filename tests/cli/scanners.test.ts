/**
 * SPEC D250–D254: external SARIF scanners named in kitbash.toml run in the install review
 * (once this user confirmed them), their findings are advisory unless
 * `[policy] block_scanner_findings` reaches their severity, and a scanner that is missing,
 * fails, hangs or writes bad SARIF is named with its problem in one line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skillIntegrity } from '../../main/services/lock/index';
import { exceptionToml } from '../../shared/policy/exceptions';
import { runCli } from '../support/paths';
import { cleanup, cleanSkill, requireBuiltCli, tempProject } from './helpers';

beforeAll(() => requireBuiltCli());
afterAll(cleanup);

const FAKE = join(__dirname, 'fixtures', 'fake-scanner.mjs');
const q = JSON.stringify;

/** A project with a skill to install from src/tool and one fake scanner in `mode`. */
function setup(
  mode: string,
  extra = '',
  command?: string[],
): { root: string; run: (...a: string[]) => ReturnType<typeof runCli> } {
  const root = tempProject('skillsmith-scanners-');
  cleanSkill(root, 'src/tool', 'tool', { 'scripts/run.sh': '#!/bin/sh\necho hello\n' });
  const argv = command ?? [process.execPath, FAKE, mode, '{skill}', ...(mode === 'file' ? ['{sarif}'] : [])];
  writeFileSync(join(root, 'kitbash.toml'), `${extra}\n[scanners.fake]\ncommand = ${q(argv)}\ntimeout = 2\n`);
  const config = tempProject('skillsmith-user-');
  return { root, run: (...a) => runCli(a, { cwd: root, env: { SKILLSMITH_CONFIG_DIR: config } }) };
}

const review = (r: ReturnType<typeof runCli>) =>
  JSON.parse(r.stdout) as {
    blockers: string[];
    notices: string[];
    scanners: { name: string; state: string; problem?: string; findings: number }[];
    nodes: {
      scanners?: { rule: string; severity: string; status: string; file?: string; line?: number }[];
      accepted: { id: string }[];
    }[];
  };
const dry = ['install', 'file:./src/tool', '--dry-run', '--no-compile', '--json'];

describe('scanners in the install review', () => {
  it('does not run a scanner this user has not confirmed, and says how to confirm it', () => {
    const { run } = setup('ok');
    const r = run('install', 'file:./src/tool', '--dry-run', '--no-compile');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/scanners: fake not confirmed by you/);
    expect(r.stdout).toMatch(
      /fake: named in kitbash\.toml but not confirmed by you, so it did not run .* — confirm with `skillsmith scanners confirm [0-9a-f]{16}`/,
    );
    expect(run('scanners', 'list').stdout).toMatch(/^[0-9a-f]{16} {2}unconfirmed {2}fake: /m);
  });

  it('shows confirmed findings with scanner and severity, advisory without a policy', () => {
    const { run } = setup('ok');
    expect(run('scanners', 'confirm', '--all').code).toBe(0);
    const text = run('install', 'file:./src/tool', '--dry-run', '--no-compile');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '⚠ scanner (advisory): fake critical fake.exec — runs a downloaded program at scripts/run.sh:2',
    );
    expect(text.stdout).toContain('⚠ scanner (advisory): fake low fake.style — long line at SKILL.md:1');
    expect(text.stdout).toContain('scanners: fake ran (2 findings)');
    const j = review(run(...dry));
    expect(j.blockers).toEqual([]);
    expect(j.scanners).toEqual([expect.objectContaining({ name: 'fake', state: 'ran', findings: 2 })]);
    expect(j.nodes[0]!.scanners).toEqual([
      expect.objectContaining({
        rule: 'fake.exec',
        severity: 'critical',
        status: 'advisory',
        file: 'scripts/run.sh',
        line: 2,
      }),
      expect.objectContaining({ rule: 'fake.style', severity: 'low', status: 'advisory', file: 'SKILL.md', line: 1 }),
    ]);
  });

  it('reads SARIF from {sarif} when the command names it', () => {
    const { run } = setup('file');
    run('scanners', 'confirm', '--all');
    expect(review(run(...dry)).scanners[0]).toMatchObject({ state: 'ran', findings: 2 });
  });

  it('blocks at the policy severity, and a confirmed exception for that exact finding accepts it', () => {
    const { root, run } = setup('ok', '[policy]\nblock_scanner_findings = "high"\n');
    run('scanners', 'confirm', '--all');
    const r = run('install', 'file:./src/tool', '--yes', '--no-compile');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '✗ tool: scanner: fake critical fake.exec — runs a downloaded program at scripts/run.sh:2',
    );
    expect(r.stderr).not.toContain('fake.style');
    const integrity = skillIntegrity(join(root, 'src/tool'));
    if (!integrity.ok) throw new Error(integrity.error.message);
    const entry = {
      skill: 'tool',
      integrity: integrity.value,
      check: 'scanner:fake/fake.exec' as const,
      file: 'scripts/run.sh',
      line: 2,
      by: 'reviewer',
      reason: 'the download is pinned',
    };
    const file = join(root, 'kitbash.toml');
    writeFileSync(
      file,
      `[policy]\nblock_scanner_findings = "high"\n\n${exceptionToml(entry)}\n[scanners.fake]\ncommand = ${q([process.execPath, FAKE, 'ok', '{skill}'])}\ntimeout = 2\n`,
    );
    // Arrived with the project: it accepts nothing until this user confirms it.
    const held = run('install', 'file:./src/tool', '--yes', '--no-compile');
    expect(held.code).toBe(1);
    expect(held.stderr).toMatch(
      /exception for tool scanner:fake\/fake\.exec at scripts\/run\.sh:2 in kitbash\.toml arrived with the project and is not confirmed by you/,
    );
    expect(run('exceptions', 'confirm', '--all').code).toBe(0);
    const ok = run('install', 'file:./src/tool', '--yes', '--no-compile');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('⚠ accepted by exception: scanner:fake/fake.exec at scripts/run.sh:2');
  });

  it('names a scanner that is not installed; with a blocking policy it blocks', () => {
    const { run } = setup('', '', ['skillsmith-test-no-such-scanner', '{skill}']);
    run('scanners', 'confirm', '--all');
    const j = review(run(...dry));
    expect(j.scanners[0]).toMatchObject({ state: 'not-installed' });
    expect(j.notices).toContain('fake: "skillsmith-test-no-such-scanner" is not installed (not found on PATH)');
    const b = setup('', '[policy]\nblock_scanner_findings = "critical"\n', [
      'skillsmith-test-no-such-scanner',
      '{skill}',
    ]);
    b.run('scanners', 'confirm', '--all');
    const r = b.run('install', 'file:./src/tool', '--yes', '--no-compile');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'not found on PATH) — [policy] block_scanner_findings = "critical" needs every scanner\'s result',
    );
  });

  it.each([
    ['malformed', 'fake failed on tool: invalid SARIF — not JSON (syntax error)'],
    ['fail', 'fake failed on tool: exited with code 3 without SARIF: fake: cannot read rules'],
    ['sleep', 'fake failed on tool: timed out after 2 s'],
  ])('says in one line when the scanner %s', (mode, line) => {
    const { run } = setup(mode);
    run('scanners', 'confirm', '--all');
    const j = review(run(...dry));
    expect(j.scanners[0]).toMatchObject({ state: 'failed', problem: line });
    expect(j.notices).toContain(line);
  });

  it('drops a finding whose path leaves the skill folder, with a note', () => {
    const { run } = setup('escape');
    run('scanners', 'confirm', '--all');
    const j = review(run(...dry));
    expect(j.nodes[0]!.scanners).toEqual([]);
    expect(j.notices).toContain(
      'tool: fake: dropped a finding at ../../../etc/passwd: the path is outside the skill folder',
    );
  });

  it('refuses a malformed [scanners] table in one line naming the file and key', () => {
    const { root, run } = setup('ok');
    writeFileSync(join(root, 'kitbash.toml'), '[scanners.fake]\ncommand = "semgrep {skill}"\n');
    const r = run(...dry);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('kitbash.toml: [scanners.fake] command must be an array of 1 to 64 strings');
    writeFileSync(join(root, 'kitbash.toml'), '[policy]\nblock_scanner_findings = ["critical"]\n');
    expect(run('scanners').stderr).toContain(
      'kitbash.toml: [policy] block_scanner_findings must be one of "critical", "high", "medium", "low"',
    );
  });

  it('asks again once the command is edited', () => {
    const { root, run } = setup('ok');
    run('scanners', 'confirm', '--all');
    writeFileSync(
      join(root, 'kitbash.toml'),
      `[scanners.fake]\ncommand = ${q([process.execPath, FAKE, 'fail', '{skill}'])}\n`,
    );
    expect(review(run(...dry)).scanners[0]).toMatchObject({ state: 'unconfirmed' });
  });
});
