/**
 * `--jobs`: trials of a run in flight together, each in its own sandbox. Concurrency is
 * proved without timing: a stand-in agent marks that it started and waits for a "go" that
 * the test writes only once a sibling trial has started too; one at a time, it gives up.
 */
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { approveRunner } from '../../main/services/evals/approvals';
import { runEvals, type EvalEvent, type EvalRequest } from '../../main/services/evals/run';
import type { EvalResult } from '../../shared/evals/model';
import { bwrapWorks, cleanup, installSkills, tempDir } from '../sandbox/helpers';
import { repoRoot } from '../support/paths';

const ok = await bwrapWorks();
const standIn = join(repoRoot, 'examples', 'workspace', 'tools', 'stand-in-agent.mjs');
const parentEnv = { PATH: process.env.PATH, LANG: 'C.UTF-8', HOME: process.env.HOME };

// Waits in its workspace for a file named "go", up to the seconds the task names.
const BARRIER = `#!/usr/bin/env node
import { existsSync, writeFileSync } from 'node:fs';
const wait = Number(/\\[barrier (\\d+)\\]/.exec(process.argv.slice(2).join(' '))[1]) * 1000;
writeFileSync('started', '');
const t0 = Date.now();
const tick = () => {
  if (existsSync('go')) return console.log('together');
  if (Date.now() - t0 > wait) return console.log('alone');
  setTimeout(tick, 50);
};
tick();
`;

// Approvals go to a folder of this test's, never the user's.
process.env.SKILLSMITH_CONFIG_DIR = tempDir('skillsmith-evals-config-');

function project(): { root: string; tmpRoot: string } {
  const root = tempDir('skillsmith-evals-par-');
  const tools = tempDir('skillsmith-evals-tools-');
  const barrier = join(tools, 'barrier.mjs');
  writeFileSync(barrier, BARRIER);
  chmodSync(barrier, 0o755);
  writeFileSync(
    join(root, 'kitbash.toml'),
    `[project]\ntargets = ["claude-code"]\n
[evals.runners.bar]
command = [${JSON.stringify(barrier)}, "{task}"]
target = "claude-code"
timeout = 120

[evals.runners.cc]
command = [${JSON.stringify(standIn)}, "--format", "claude-code", "{task}"]
target = "claude-code"
transcript = "claude-code"
`,
  );
  const together = (secs: number, repeat: number): string =>
    `tier: behavioral\ntask: "[barrier ${secs}]"\nrepeat: ${repeat}\nassert:\n  - output_contains: together\n`;
  installSkills(root, {
    prereview: {
      files: {
        'skill.toml':
          '[skill]\nname = "prereview"\nversion = "0.1.0"\ndescription = "Check the pending diff before pushing"\n\n[context]\nbudget = 1500\n',
        'evals/pair.eval.yaml': together(60, 2),
        'evals/alone.eval.yaml': together(2, 2),
        'evals/held.eval.yaml': together(600, 4),
        'evals/review.eval.yaml':
          'tier: behavioral\ntask: Review the pending change before pushing\nrepeat: 3\nassert:\n  - files_changed: [REVIEW.md]\n',
        'evals/trigger.eval.yaml':
          'tier: trigger\nshould_trigger: [Check the pending diff]\nshould_not_trigger: [Write a haiku about autumn]\n',
      },
    },
  });
  for (const id of ['bar', 'cc']) approveRunner(root, id);
  return { root, tmpRoot: tempDir('skillsmith-evals-ws-') };
}

/** Writes "go" into every started trial's workspace once `n` of them have started; calls `onAll` then. */
function coordinator(tmpRoot: string, n: number, onAll: () => void = () => undefined): () => void {
  const timer = setInterval(() => {
    const started = readdirSync(tmpRoot)
      .map((d) => join(tmpRoot, d, 'work'))
      .filter((w) => existsSync(join(w, 'started')));
    if (started.length < n) return;
    for (const w of started) if (!existsSync(join(w, 'go'))) writeFileSync(join(w, 'go'), '');
    onAll();
  }, 50);
  return () => clearInterval(timer);
}

async function run(
  req: Omit<EvalRequest, 'projectRoot' | 'skills'>,
  root: string,
  tmpRoot: string,
  signal?: AbortSignal,
) {
  const events: EvalEvent[] = [];
  const r = await runEvals(
    { projectRoot: root, skills: [], ...req },
    { onEvent: (e) => events.push(e), ...(signal ? { signal } : {}) },
    { parentEnv, tmpRoot },
  );
  return { run: r, events };
}

const scores = (rs: readonly EvalResult[]) =>
  rs.map((r) => ({
    ...r,
    trialResults: r.trialResults.map((t) => ({ ...t, durationMs: 0 })),
  }));

afterAll(cleanup);

describe.skipIf(!ok)('skillsmith eval --jobs', () => {
  it('with --jobs 2 two trials are in flight at once: each sees its sibling start', async () => {
    const { root, tmpRoot } = project();
    const stop = coordinator(tmpRoot, 2);
    try {
      const { run: r, events } = await run({ runner: 'bar', baseline: false, evals: ['pair'], jobs: 2 }, root, tmpRoot);
      expect(r.results[0]!.trialResults.map((t) => [t.index, t.outcome, t.passed])).toEqual([
        [0, 'completed', true],
        [1, 'completed', true],
      ]);
      expect(events.filter((e) => e.type === 'trial').map((e) => (e.type === 'trial' ? e.done : 0))).toEqual([1, 2]);
    } finally {
      stop();
    }
  });

  it('with --jobs 1 the same trials never overlap: each waits alone and fails', async () => {
    const { root, tmpRoot } = project();
    const stop = coordinator(tmpRoot, 2);
    try {
      const { run: r } = await run({ runner: 'bar', baseline: false, evals: ['alone'], jobs: 1 }, root, tmpRoot);
      expect(r.results[0]!.trialResults.map((t) => [t.outcome, t.passed])).toEqual([
        ['completed', false],
        ['completed', false],
      ]);
      expect(r.results[0]!.assertions[0]!.detail).toContain('does not contain "together"');
    } finally {
      stop();
    }
  });

  it('cancel stops every running trial and starts no more', async () => {
    const { root, tmpRoot } = project();
    const c = new AbortController();
    const stop = coordinator(tmpRoot, 2, () => c.abort());
    try {
      const { run: r, events } = await run(
        { runner: 'bar', baseline: false, evals: ['held'], jobs: 2 },
        root,
        tmpRoot,
        c.signal,
      );
      expect(events[0]).toMatchObject({ type: 'planned', total: 4 });
      expect(r.cancelled).toBe(true);
      expect(r.results[0]!.trialResults.map((t) => [t.index, t.outcome])).toEqual([
        [0, 'cancelled'],
        [1, 'cancelled'],
      ]);
      expect(readdirSync(tmpRoot)).toEqual([]);
    } finally {
      stop();
    }
  });

  it('results, their order and the stored transcripts are those of a serial run', async () => {
    const { root, tmpRoot } = project();
    const req = { runner: 'cc', baseline: true, evals: ['review', 'trigger'] };
    const serial = await run({ ...req, jobs: 1 }, root, tmpRoot);
    const parallel = await run({ ...req, jobs: 4 }, root, tmpRoot);
    expect(scores(parallel.run.results)).toEqual(scores(serial.run.results));
    expect(
      parallel.events.filter((e) => e.type === 'result').map((e) => (e.type === 'result' ? e.result.eval : '')),
    ).toEqual(['review', 'trigger']);
    const trialEvents = parallel.events.filter((e) => e.type === 'trial');
    expect(trialEvents.map((e) => (e.type === 'trial' ? `${e.done}/${e.total}` : ''))).toEqual([
      '1/8',
      '2/8',
      '3/8',
      '4/8',
      '5/8',
      '6/8',
      '7/8',
      '8/8',
    ]);
    const listing = (dir: string) => readdirSync(join(root, dir, 'prereview/review/cc')).sort();
    expect(listing(parallel.run.dir)).toEqual(listing(serial.run.dir));
  });
});
