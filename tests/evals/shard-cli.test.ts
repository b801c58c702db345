/**
 * A CI matrix on one machine: `skillsmith eval --shard K/3 --json` three times, then
 * `skillsmith eval merge`, against the example workspace's stand-in agent. The merge scores
 * as the unsharded run does, lands in the app's history, and refuses shards that are not
 * one run.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalService } from '../../main/services/evals/service';
import { requireBuiltCli } from '../cli/helpers';
import { bwrapWorks, cleanup, tempDir } from '../sandbox/helpers';
import { repoRoot, runCli } from '../support/paths';

const ok = await bwrapWorks();
const example = join(repoRoot, 'examples/workspace');
afterAll(cleanup);

type Out = { run: Record<string, unknown>; results: Array<Record<string, unknown>> };

/** What a run concludes, without the trials' timings. */
const verdicts = (j: Out) =>
  j.results.map(({ trial_results, ...r }) => ({
    ...r,
    trial_results: (trial_results as Array<Record<string, unknown>>).map((t) => ({ ...t, duration_ms: 0 })),
  }));

describe.skipIf(!ok)('skillsmith eval --shard and eval merge (CLI)', () => {
  let ws = '';
  const flags = ['--baseline', '--repeat', '3', '--jobs', '2', '--json'];
  beforeAll(() => {
    requireBuiltCli();
    ws = join(tempDir('skillsmith-eval-shard-'), 'workspace');
    cpSync(example, ws, { recursive: true, verbatimSymlinks: true });
    expect(runCli(['eval', '--approve-runner', 'stand-in'], { cwd: ws }).code).toBe(0);
    for (const k of [1, 2, 3]) {
      const r = runCli(['eval', ...flags, '--shard', `${k}/3`], { cwd: ws });
      expect(r.code, r.stderr).toBe(0);
      writeFileSync(join(ws, `shard-${k}.json`), r.stdout);
    }
  });

  it('three shards merged score exactly as one run, in JSON and JUnit', () => {
    const whole = runCli(['eval', ...flags, '--junit', 'whole.xml'], { cwd: ws });
    expect(whole.code).toBe(0);
    const merged = runCli(
      ['eval', 'merge', 'shard-1.json', 'shard-2.json', 'shard-3.json', '--json', '--junit', 'merged.xml'],
      {
        cwd: ws,
      },
    );
    expect(merged.code, merged.stderr).toBe(0);
    const w = JSON.parse(whole.stdout) as Out;
    const m = JSON.parse(merged.stdout) as Out;
    expect(verdicts(m)).toEqual(verdicts(w));
    expect(m.run).toMatchObject({ shard: null, config: w.run.config, merged_from: expect.any(Array) });
    const shards = [1, 2, 3].map((k) => JSON.parse(readFileSync(join(ws, `shard-${k}.json`), 'utf8')) as Out);
    // Each shard is a part: together they hold every trial once.
    const count = (j: Out) => j.results.reduce((n, r) => n + (r.trial_results as unknown[]).length, 0);
    expect(shards.map(count).reduce((a, b) => a + b)).toBe(count(w));
    expect(shards.every((s) => count(s) < count(w))).toBe(true);
    const untimed = (x: string) => x.replace(/ time="[\d.]+"/g, '');
    expect(untimed(readFileSync(join(ws, 'merged.xml'), 'utf8'))).toBe(
      untimed(readFileSync(join(ws, 'whole.xml'), 'utf8')),
    );
    // Recorded like a run: the app's history lists it.
    const svc = new EvalService();
    const stored = svc.storedRuns(ws).find((r) => r.runId === m.run.id);
    expect(stored?.mergedFrom).toEqual(shards.map((s) => s.run.id));
    expect(svc.history(ws, 'prereview').filter((p) => p.runId === m.run.id)).toHaveLength(2);
  });

  it('the human output of a merge is the run table', () => {
    const r = runCli(['eval', 'merge', 'shard-3.json', 'shard-1.json', 'shard-2.json'], { cwd: ws });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}review +stand-in +3 +100% \(≥ 100%\) +0% +\+100% \[\+\d+%, \+100%\] +100% +✓$/m);
    expect(r.stdout).toMatch(/^merged 3 shards into \.kitbash\/evals\/[\w-]+\/$/m);
  });

  it('refuses overlapping, missing and foreign shards with one line naming the file', () => {
    writeFileSync(join(ws, 'again.json'), readFileSync(join(ws, 'shard-2.json')));
    expect(
      runCli(['eval', 'merge', 'shard-1.json', 'shard-2.json', 'again.json', 'shard-3.json'], { cwd: ws }),
    ).toMatchObject({
      code: 1,
      stderr: 'skillsmith eval: again.json: overlaps shard-2.json: both are shard 2/3\n',
    });
    expect(runCli(['eval', 'merge', 'shard-1.json', 'shard-3.json'], { cwd: ws })).toMatchObject({
      code: 1,
      stderr: 'skillsmith eval: shard 2/3 is missing (given: shard-1.json 1/3, shard-3.json 3/3)\n',
    });
    const other = runCli(['eval', '--baseline', '--repeat', '2', '--json', '--shard', '2/3'], { cwd: ws });
    writeFileSync(join(ws, 'other.json'), other.stdout);
    expect(runCli(['eval', 'merge', 'shard-1.json', 'other.json', 'shard-3.json'], { cwd: ws })).toMatchObject({
      code: 1,
      stderr:
        'skillsmith eval: other.json: not the same run configuration as shard-1.json (the evals, runners, --repeat or --baseline differ)\n',
    });
    expect(runCli(['eval', 'merge', 'nope.json'], { cwd: ws })).toMatchObject({
      code: 1,
      stderr: 'skillsmith eval: nope.json: no such file\n',
    });
    expect(runCli(['eval', '--shard', '4/3'], { cwd: ws })).toMatchObject({
      code: 2,
      stderr: "skillsmith eval: --shard 4/3: want K/N, this machine's part K of N (1 ≤ K ≤ N ≤ 1000), e.g. 2/3\n",
    });
  });
});
