/**
 * `--shard K/N` and `eval merge` as pure functions: a fixed assignment of trials to shards,
 * and a merge that equals the unsharded run (property-tested over seeded random runs), or
 * refuses with one line naming the file.
 */
import { describe, expect, it } from 'vitest';
import type { EvalResult, EvalTier, TrialResult } from '../../shared/evals/model';
import { mergeShards, type ShardFile } from '../../shared/evals/merge';
import { evalJson } from '../../shared/evals/report';
import { parseShard, runHeader, shardOf, type PlannedEval } from '../../shared/evals/shard';
import { summariseEval } from '../../shared/evals/summary';
import { formatError } from '../../shared/result';
import { seeded } from '../support/random';

interface StandIn {
  readonly plan: PlannedEval[];
  readonly trials: Map<string, TrialResult[]>;
  readonly baseline: boolean;
}

const id = (p: Pick<PlannedEval, 'skill' | 'eval' | 'runner'>): string => `${p.skill}/${p.eval}/${p.runner}`;

/** A random run: a few evals × runners, each trial's verdict, outcome and usage drawn from the seed. */
function standInRun(seed: number): StandIn {
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const baseline = rnd() < 0.6;
  const plan: PlannedEval[] = [];
  const trials = new Map<string, TrialResult[]>();
  for (const skill of ['alpha', 'beta'].slice(0, 1 + Math.floor(rnd() * 2)))
    for (const evalName of ['review', 'fix', 'trigger'])
      for (const runner of ['cc', 'cx'].slice(0, 1 + Math.floor(rnd() * 2))) {
        const tier: EvalTier = evalName === 'trigger' ? 'trigger' : pick(['behavioral', 'audit']);
        const n = 1 + Math.floor(rnd() * 6);
        const nb = baseline && tier !== 'trigger' ? n : 0;
        const p = { skill, version: '1.0.0', eval: evalName, tier, threshold: pick([0.5, 0.8, 1]), runner };
        plan.push({ ...p, trials: n, baselineTrials: nb });
        const make = (b: boolean, index: number): TrialResult => {
          const outcome = rnd() < 0.85 ? 'completed' : pick(['timeout', 'crashed', 'unparseable'] as const);
          const passed = outcome === 'completed' && rnd() < (b ? 0.3 : 0.7);
          return {
            index,
            baseline: b,
            task: `task ${index}`,
            ...(tier === 'trigger' ? { shouldTrigger: index % 2 === 0 } : {}),
            outcome,
            exitCode: outcome === 'completed' ? 0 : null,
            durationMs: Math.floor(rnd() * 5000),
            passed,
            skillLoaded: pick(['yes', 'no', 'unknown'] as const),
            tools: [],
            assertions: [
              { kind: 'exit_code', status: passed ? 'pass' : pick(['fail', 'unknown'] as const), detail: `d${index}` },
            ],
            changed: [],
            ...(rnd() < 0.5 ? { usage: { inputTokens: Math.floor(rnd() * 1000), outputTokens: 7 } } : {}),
          };
        };
        trials.set(id(p), [
          ...Array.from({ length: n }, (_, i) => make(false, i)),
          ...Array.from({ length: nb }, (_, i) => make(true, i)),
        ]);
      }
  return { plan, trials, baseline };
}

const score = (s: StandIn, keep: (p: PlannedEval, t: TrialResult) => boolean): EvalResult[] =>
  s.plan.map((p) =>
    summariseEval(
      {
        skill: p.skill,
        version: p.version,
        eval: { name: p.eval, tier: p.tier, threshold: p.threshold },
        runner: p.runner,
      },
      s.trials.get(id(p))!.filter((t) => keep(p, t)),
      s.baseline,
    ),
  );

/** Shard k of n as `eval --shard k/n --json` would print it. */
function shardFile(s: StandIn, k: number, n: number, over: Record<string, unknown> = {}): ShardFile {
  const results = score(s, (p, t) => shardOf({ ...p, baseline: t.baseline, index: t.index }, n) === k);
  const header = runHeader({
    runId: `run-${k}`,
    startedAt: '2026-01-01T00:00:00.000Z',
    dir: `.kitbash/evals/run-${k}`,
    baseline: s.baseline,
    config: 'cfg',
    plan: s.plan,
    shard: { index: k, count: n },
    runners: { cc: { command: ['cc'], target: 'claude-code', transcript: 'claude-code' } },
    cancelled: false,
    runnerUnavailable: false,
  });
  return { file: `shard-${k}.json`, text: evalJson(results, [], { ...header, ...over }) };
}

const mergeError = (files: ShardFile[]): string => {
  const r = mergeShards(files);
  if (r.ok) throw new Error('merged');
  return formatError(r.error);
};

describe('shard assignment', () => {
  it('parses K/N and refuses anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '3', 'a/b', '1/0', '1/1001'])
      expect(parseShard(bad)).toMatch(/^--shard .*: want K\/N/);
  });

  it('is fixed by the trial alone: pinned values, so every machine agrees', () => {
    const t = { skill: 'prereview', eval: 'review', runner: 'stand-in', baseline: false };
    // FNV-1a of "prereview/review/stand-in/skill/0" and so on, mod 3, plus 1.
    expect([0, 1, 2, 3, 4, 5].map((index) => shardOf({ ...t, index }, 3))).toEqual([3, 1, 2, 3, 2, 3]);
    expect([0, 1, 2, 3, 4, 5].map((index) => shardOf({ ...t, baseline: true, index }, 3))).toEqual([1, 2, 3, 1, 2, 3]);
    expect(shardOf({ ...t, index: 0 }, 1)).toBe(1);
  });
});

describe('eval merge', () => {
  it('property: shards 1..N of a run, merged, score exactly as the unsharded run', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const s = standInRun(seed);
      const whole = score(s, () => true);
      for (const n of [3, 1 + (seed % 5)]) {
        const files = Array.from({ length: n }, (_, i) => shardFile(s, i + 1, n));
        // Order of the files does not matter.
        const merged = mergeShards(seed % 2 ? files : [...files].reverse());
        if (!merged.ok) throw new Error(`seed ${seed}: ${formatError(merged.error)}`);
        expect(merged.value.results, `seed ${seed}, ${n} shards`).toEqual(whole);
        expect(merged.value.mergedFrom).toEqual(files.map((_, i) => `run-${i + 1}`));
      }
    }
  });

  it('refuses shards that are not one run, with one line naming the file', () => {
    const s = standInRun(7);
    const [a, b, c] = [1, 2, 3].map((k) => shardFile(s, k, 3)) as [ShardFile, ShardFile, ShardFile];
    expect(mergeError([a, b, { ...b, file: 'copy.json' }, c])).toBe(
      'copy.json: overlaps shard-2.json: both are shard 2/3',
    );
    expect(mergeError([a, c])).toBe('shard 2/3 is missing (given: shard-1.json 1/3, shard-3.json 3/3)');
    expect(mergeError([a, { ...shardFile(s, 2, 3, { config: 'other' }), file: 'b.json' }, c])).toBe(
      'b.json: not the same run configuration as shard-1.json (the evals, runners, --repeat or --baseline differ)',
    );
    expect(mergeError([a, { ...shardFile(s, 2, 4), file: 'four.json' }])).toBe(
      'four.json: shard 2/4, but shard-1.json is one of 3',
    );
    expect(mergeError([a, { ...shardFile(s, 2, 3, { cancelled: true }), file: 'x.json' }, c])).toBe(
      'x.json: shard 2/3 was cancelled — run it again',
    );
    expect(mergeError([{ file: 'n.json', text: 'nope' }])).toMatch(/^n\.json: not JSON \(/);
    expect(mergeError([{ ...shardFile(s, 1, 3, { shard: null }), file: 'w.json' }])).toBe(
      'w.json: a whole run, not a shard (run without --shard)',
    );
    // A shard holding a trial that hashes elsewhere, or missing one of its own.
    const doc = JSON.parse(b.text) as { results: Array<{ trial_results: unknown[] }> };
    const withTrials = doc.results.findIndex((r) => r.trial_results.length > 0);
    const dropped = structuredClone(doc);
    dropped.results[withTrials]!.trial_results.pop();
    expect(mergeError([a, { file: 'b.json', text: JSON.stringify(dropped) }, c])).toMatch(
      /^b\.json: trial \S+ of shard 2\/3 is missing$/,
    );
    const stray = JSON.parse(a.text) as typeof doc;
    const both = stray.results.findIndex(
      (r, j) => r.trial_results.length > 0 && doc.results[j]!.trial_results.length > 0,
    );
    expect(both).toBeGreaterThanOrEqual(0);
    stray.results[both]!.trial_results.push(doc.results[both]!.trial_results[0]);
    expect(mergeError([{ file: 'a.json', text: JSON.stringify(stray) }, b, c])).toMatch(
      /^a\.json: trial \S+ belongs to shard 2\/3, not 1\/3$/,
    );
  });
});
