import type { EvalResult, RunnerConfig, TrialResult } from './model';
import { EVAL_TIERS } from './model';
import { fail, ok, type Result } from '../result';
import { parseShard, shardOf, trialKey, type PlannedEval, type Shard } from './shard';
import { summariseEval } from './summary';
import { asRecord, trialFromJson } from './trial-json';

/** One shard's `skillsmith eval --shard K/N --json` output, with the file it came from. */
export interface ShardFile {
  readonly file: string;
  readonly text: string;
}

export interface MergedRun {
  readonly config: string;
  readonly baseline: boolean;
  readonly plan: readonly PlannedEval[];
  readonly results: readonly EvalResult[];
  readonly problems: readonly string[];
  readonly runnerUnavailable: boolean;
  readonly runners: Readonly<Record<string, Pick<RunnerConfig, 'command' | 'target' | 'transcript'>>>;
  /** The shards' run ids, in shard order. */
  readonly mergedFrom: readonly string[];
}

interface Doc {
  readonly file: string;
  readonly id: string;
  readonly shard: Shard;
  readonly config: string;
  readonly baseline: boolean;
  readonly plan: PlannedEval[];
  readonly runners: MergedRun['runners'];
  readonly runnerUnavailable: boolean;
  readonly problems: string[];
  readonly results: unknown[];
}

/**
 * Shards joined into the run they split: every planned trial exactly once, and each eval
 * scored again from its trials by `summariseEval`, as the unsharded run scores them (never
 * an average of the shards' rates). Anything that would make the join differ from that run
 * — another configuration, a shard twice or missing, a trial in the wrong shard or absent —
 * is refused with one line naming the file.
 */
export function mergeShards(files: readonly ShardFile[]): Result<MergedRun> {
  if (files.length === 0) return fail('invalid-request', 'eval merge: name the shards’ results files (--json output)');
  const docs: Doc[] = [];
  for (const f of files) {
    const d = readDoc(f);
    if (typeof d === 'string') return fail('invalid-input', d, { file: f.file });
    docs.push(d);
  }
  const first = docs[0]!;
  const seen = new Map<number, Doc>();
  for (const d of docs) {
    const bad = (why: string): Result<never> => fail('invalid-input', why, { file: d.file });
    if (d.config !== first.config || d.baseline !== first.baseline)
      return bad(`not the same run configuration as ${first.file} (the evals, runners, --repeat or --baseline differ)`);
    if (d.shard.count !== first.shard.count)
      return bad(`shard ${d.shard.index}/${d.shard.count}, but ${first.file} is one of ${first.shard.count}`);
    const twin = seen.get(d.shard.index);
    if (twin) return bad(`overlaps ${twin.file}: both are shard ${d.shard.index}/${d.shard.count}`);
    seen.set(d.shard.index, d);
  }
  const count = first.shard.count;
  for (let k = 1; k <= count; k++)
    if (!seen.has(k))
      return fail(
        'invalid-input',
        `shard ${k}/${count} is missing (given: ${docs.map((d) => `${d.file} ${d.shard.index}/${count}`).join(', ')})`,
      );
  const planKey = (p: { skill: string; eval: string; runner: string }): string => `${p.skill}\0${p.eval}\0${p.runner}`;
  const planned = new Map(first.plan.map((p) => [planKey(p), p]));
  const trials = new Map<string, TrialResult>();
  for (const d of docs) {
    const bad = (why: string): Result<never> => fail('invalid-input', why, { file: d.file });
    for (const [i, raw] of d.results.entries()) {
      const r = asRecord(raw);
      const at = `results[${i}]`;
      if (!r || typeof r.skill !== 'string' || typeof r.eval !== 'string' || typeof r.runner !== 'string')
        return bad(`${at}: no skill, eval and runner`);
      const id = { skill: r.skill, eval: r.eval, runner: r.runner };
      if (!planned.has(planKey(id))) return bad(`${at}: ${r.skill}/${r.eval}/${r.runner} is not in the run's plan`);
      if (!Array.isArray(r.trial_results)) return bad(`${at}.trial_results: missing — not --json output of eval`);
      for (const [j, tj] of r.trial_results.entries()) {
        const t = trialFromJson(tj, `${at}.trial_results[${j}]`);
        if (typeof t === 'string') return fail('invalid-input', t, { file: d.file });
        const tid = { ...id, baseline: t.baseline, index: t.index };
        const owner = shardOf(tid, count);
        if (owner !== d.shard.index)
          return bad(`trial ${trialKey(tid)} belongs to shard ${owner}/${count}, not ${d.shard.index}/${count}`);
        if (trials.has(trialKey(tid))) return bad(`trial ${trialKey(tid)} appears twice`);
        trials.set(trialKey(tid), t);
      }
    }
  }
  const results: EvalResult[] = [];
  for (const p of first.plan) {
    const mine: TrialResult[] = [];
    for (const baseline of [false, true]) {
      for (let index = 0; index < (baseline ? p.baselineTrials : p.trials); index++) {
        const tid = { skill: p.skill, eval: p.eval, runner: p.runner, baseline, index };
        const t = trials.get(trialKey(tid));
        const owner = seen.get(shardOf(tid, count))!;
        if (!t)
          return fail('invalid-input', `trial ${trialKey(tid)} of shard ${owner.shard.index}/${count} is missing`, {
            file: owner.file,
          });
        mine.push(t);
      }
    }
    results.push(
      summariseEval(
        {
          skill: p.skill,
          version: p.version,
          eval: { name: p.eval, tier: p.tier, threshold: p.threshold },
          runner: p.runner,
        },
        mine,
        first.baseline,
      ),
    );
  }
  const ordered = [...docs].sort((a, b) => a.shard.index - b.shard.index);
  return ok({
    config: first.config,
    baseline: first.baseline,
    plan: first.plan,
    results,
    problems: [...new Set(docs.flatMap((d) => d.problems))],
    runnerUnavailable: docs.some((d) => d.runnerUnavailable),
    runners: Object.assign({}, ...ordered.map((d) => d.runners)) as MergedRun['runners'],
    mergedFrom: ordered.map((d) => d.id),
  });
}

function readDoc(f: ShardFile): Doc | string {
  let v: unknown;
  try {
    v = JSON.parse(f.text);
  } catch (e) {
    return `not JSON (${e instanceof Error ? e.message : String(e)}) — want "skillsmith eval --shard K/N --json" output`;
  }
  const o = asRecord(v);
  const run = asRecord(o?.run);
  if (!o || !run) return `no "run" object — want "skillsmith eval --shard K/N --json" output`;
  if (run.shard === null || run.shard === undefined) return `a whole run, not a shard (run without --shard)`;
  const shard = typeof run.shard === 'string' ? parseShard(run.shard) : 'bad';
  if (typeof shard === 'string') return `run.shard: want "K/N"`;
  if (run.cancelled === true) return `shard ${shard.index}/${shard.count} was cancelled — run it again`;
  if (typeof run.config !== 'string' || typeof run.baseline !== 'boolean' || typeof run.id !== 'string')
    return `run: id, config or baseline missing`;
  if (!Array.isArray(run.plan)) return `run.plan: missing`;
  const plan: PlannedEval[] = [];
  for (const [i, x] of run.plan.entries()) {
    const p = asRecord(x);
    const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
    if (
      !p ||
      typeof p.skill !== 'string' ||
      typeof p.version !== 'string' ||
      typeof p.eval !== 'string' ||
      typeof p.runner !== 'string' ||
      !EVAL_TIERS.includes(p.tier as PlannedEval['tier']) ||
      typeof p.threshold !== 'number' ||
      !whole(p.trials) ||
      !whole(p.baseline_trials)
    )
      return `run.plan[${i}]: missing or malformed`;
    plan.push({
      skill: p.skill,
      version: p.version,
      eval: p.eval,
      tier: p.tier as PlannedEval['tier'],
      threshold: p.threshold,
      runner: p.runner,
      trials: p.trials,
      baselineTrials: p.baseline_trials,
    });
  }
  const results = Array.isArray(o.results) ? (o.results as unknown[]) : undefined;
  if (!results) return `results: missing`;
  const problems = Array.isArray(o.problems) ? o.problems.filter((p): p is string => typeof p === 'string') : [];
  return {
    file: f.file,
    id: run.id,
    shard,
    config: run.config,
    baseline: run.baseline,
    plan,
    runners: (asRecord(run.runners) ?? {}) as MergedRun['runners'],
    runnerUnavailable: run.runner_unavailable === true,
    problems,
    results,
  };
}
