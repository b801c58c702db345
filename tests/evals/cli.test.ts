/**
 * `skillsmith eval` on the command line (SPEC.md "Evals"): the example workspace's evals
 * against its stand-in runner (what CI runs), the JSON and JUnit outputs, the exit codes,
 * and `test` pointing to `eval`.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../cli/helpers';
import { bwrapWorks, cleanup, repinSkill, tempDir } from '../sandbox/helpers';
import { configDirForTests, repoRoot, runCli } from '../support/paths';

const ok = await bwrapWorks();
const example = join(repoRoot, 'examples/workspace');
afterAll(cleanup);

describe.skipIf(!ok)('skillsmith eval (CLI)', () => {
  let ws = '';
  beforeAll(() => {
    requireBuiltCli();
    ws = join(tempDir('skillsmith-eval-cli-'), 'workspace');
    cpSync(example, ws, { recursive: true, verbatimSymlinks: true });
  });

  it('refuses an unapproved runner without a terminal, and --approve-runner records what it prints', () => {
    const refused = runCli(['eval'], { cwd: ws });
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toBe(
      'skillsmith eval: runner stand-in: not approved yet — it asks for no network, env none, reads none; approve it with: skillsmith eval --approve-runner stand-in\n',
    );
    const approved = runCli(['eval', '--approve-runner', 'stand-in'], { cwd: ws });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe(
      [
        `approved runner stand-in in ${ws}:`,
        '  command: ./tools/stand-in-agent.mjs --format claude-code {task}',
        '  reads: nothing outside the trial workspace (read-only)',
        '  env: none of your variables',
        '  network: off',
        '  target: claude-code, transcript: claude-code, timeout: 60 s',
        `recorded in ${join(configDirForTests(), 'runner-approvals.json')}; any change to it asks again`,
        '',
      ].join('\n'),
    );
    // A preset used as it is passes its API key and the network: it asks too.
    expect(runCli(['eval', '--runner', 'codex'], { cwd: ws }).stderr).toBe(
      'skillsmith eval: runner codex: not approved yet — it asks for network, env CODEX_API_KEY, OPENAI_API_KEY, reads none; approve it with: skillsmith eval --approve-runner codex\n',
    );
    expect(runCli(['eval', '--approve-runner', 'codex'], { cwd: ws }).stdout).toContain(
      '  env: CODEX_API_KEY, OPENAI_API_KEY (passed from your environment)\n  network: on — it can reach any host\n',
    );
    // A cloned change to what the runner may do asks again, saying what changed.
    const toml = join(ws, 'kitbash.toml');
    const before = readFileSync(toml, 'utf8');
    writeFileSync(toml, `${before}env = ["SECRET_TOKEN"]\nnetwork = true\n`);
    expect(runCli(['eval'], { cwd: ws }).stderr).toBe(
      'skillsmith eval: runner stand-in: changed since you approved it (env: + SECRET_TOKEN; network: off → on) — it asks for network, env SECRET_TOKEN, reads none; approve it with: skillsmith eval --approve-runner stand-in\n',
    );
    writeFileSync(toml, before);
  });

  it('runs the example workspace evals with a baseline: exit 0, a table per skill', () => {
    const r = runCli(['eval', '--baseline', '--junit', 'eval-report.xml'], { cwd: ws });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^prereview@0\.1\.0\n {2}eval +runner +trials +pass rate +baseline +effect +triggered\n/);
    expect(r.stdout).toMatch(/^ {2}review +stand-in +3 +100% \(≥ 100%\) +0% +\+100% \[\+\d+%, \+100%\] +100% +✓$/m);
    expect(r.stdout).toMatch(/^ {2}trigger +stand-in +4 +100% \(≥ 100%\) +— +— +P 100% R 100% +✓$/m);
    expect(r.stdout).toMatch(/^results and transcripts: \.kitbash\/evals\/[\w-]+\/$/m);
    const junit = readFileSync(join(ws, 'eval-report.xml'), 'utf8');
    expect(junit).toContain('<testsuites name="skillsmith eval" tests="2" failures="0">');
    expect(junit).toContain('<testcase classname="prereview.stand-in" name="review"');
  });

  it('--json has the documented shape', () => {
    const r = runCli(['eval', 'prereview', '--json', '--repeat', '2', '--baseline'], { cwd: ws });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { results: Array<Record<string, unknown>> };
    expect(
      j.results.map((x) => [x.eval, x.trials, x.passed, x.pass_rate, x.baseline_pass_rate, x.triggered_rate]),
    ).toEqual([
      ['review', 2, true, 1, 0, 1],
      ['trigger', 8, true, 1, null, 0.5],
    ]);
    expect(j.results[0]!.assertions).toEqual([
      { kind: 'artifact', passed: true, detail: '2/2 trials' },
      { kind: 'files_changed', passed: true, detail: '2/2 trials' },
      { kind: 'output_matches', passed: true, detail: '2/2 trials' },
      { kind: 'exit_code', passed: true, detail: '2/2 trials' },
      { kind: 'skill_triggered', passed: true, detail: '2/2 trials' },
      { kind: 'files_unchanged', passed: true, detail: '2/2 trials' },
    ]);
  });

  it('exit 1 when an eval misses its threshold', () => {
    writeFileSync(
      join(ws, '.kitbash/skills/prereview/evals/review.eval.yaml'),
      'tier: behavioral\ntask: Write a haiku\nassert:\n  - files_changed: [REVIEW.md]\n',
    );
    // Re-pinned, as a reviewed edit would be: eval refuses a skill that drifted from its pin.
    repinSkill(ws, 'prereview');
    const r = runCli(['eval', 'prereview'], { cwd: ws });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  ✗ review (stand-in) files_changed: no changed file matches REVIEW.md');
  });

  it('exit 2 for usage errors and a runner that cannot start', () => {
    expect(runCli(['eval', '--repeat', '0'], { cwd: ws })).toMatchObject({
      code: 2,
      stderr: 'skillsmith eval: --repeat 0: want a whole number from 1 to 100\n',
    });
    expect(runCli(['eval', '--runner', 'nope'], { cwd: ws }).stderr).toBe(
      'skillsmith eval: --runner nope: no such runner (configured: stand-in; presets: claude-code, codex, gemini)\n',
    );
    expect(runCli(['eval', '--bogus'], { cwd: ws }).code).toBe(2);
    const r = runCli(['eval', '--runner', 'codex'], { cwd: ws, env: { PATH: '/usr/bin:/bin' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'skillsmith eval: a runner could not start — runner codex: codex not found on PATH — is the agent installed?',
    );
  });

  it('test still runs the static tier and points to eval for the others', () => {
    const r = runCli(['test', 'prereview'], { cwd: ws });
    expect(r.stdout).toContain('need a runner — run them with "skillsmith eval"');
  });
});
