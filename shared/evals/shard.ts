import type { EvalTier, RunnerConfig } from './model';

/**
 * `--shard K/N`: which trials a CI matrix job runs. A trial belongs to shard
 * `1 + fnv1a32(key) mod N`, where the key is `skill/eval/runner/skill|baseline/index`
 * (FNV-1a over the key's UTF-16 code units). Only the trial's identity goes in, never the
 * machine, the time or the other trials, so every machine given the same project and
 * flags agrees on each shard's fixed subset, and the N shards cover every trial once.
 * Shards are balanced only on average: a small run can leave a shard with nothing.
 */
export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export const MAX_SHARDS = 1000;

/** `K/N` with 1 ≤ K ≤ N ≤ MAX_SHARDS, or why not. */
export function parseShard(text: string): Shard | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || index < 1 || count < 1 || index > count || count > MAX_SHARDS)
    return `--shard ${text}: want K/N, this machine's part K of N (1 ≤ K ≤ N ≤ ${MAX_SHARDS}), e.g. 2/3`;
  return { index, count };
}

export interface TrialIdentity {
  readonly skill: string;
  readonly eval: string;
  readonly runner: string;
  readonly baseline: boolean;
  readonly index: number;
}

export function trialKey(t: TrialIdentity): string {
  return `${t.skill}/${t.eval}/${t.runner}/${t.baseline ? 'baseline' : 'skill'}/${t.index}`;
}

/** The 1-based shard of N a trial belongs to. */
export function shardOf(t: TrialIdentity, count: number): number {
  let h = 0x811c9dc5;
  const key = trialKey(t);
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return 1 + (h % count);
}

/** One eval × runner as planned, before sharding: what a merge needs to know is whole. */
export interface PlannedEval {
  readonly skill: string;
  readonly version: string;
  readonly eval: string;
  readonly tier: EvalTier;
  readonly threshold: number;
  readonly runner: string;
  /** Trials with the skill (indexes 0…n−1) and without it (`--baseline`). */
  readonly trials: number;
  readonly baselineTrials: number;
}

/** What `--json` says about its run (the `run` object), so shards can be checked and merged. */
export interface RunHeaderSource {
  readonly runId: string;
  readonly startedAt: string;
  readonly dir: string;
  readonly baseline: boolean;
  /** A digest of everything that decides which trials exist and how they are judged. */
  readonly config: string;
  readonly plan: readonly PlannedEval[];
  readonly shard?: Shard;
  readonly runners: Readonly<Record<string, Pick<RunnerConfig, 'command' | 'target' | 'transcript'>>>;
  readonly cancelled: boolean;
  readonly runnerUnavailable: boolean;
  readonly mergedFrom?: readonly string[];
}

export function runHeader(r: RunHeaderSource): Record<string, unknown> {
  return {
    id: r.runId,
    started_at: r.startedAt,
    dir: r.dir,
    shard: r.shard ? `${r.shard.index}/${r.shard.count}` : null,
    config: r.config,
    baseline: r.baseline,
    cancelled: r.cancelled,
    runner_unavailable: r.runnerUnavailable,
    plan: r.plan.map((p) => ({
      skill: p.skill,
      version: p.version,
      eval: p.eval,
      tier: p.tier,
      threshold: p.threshold,
      runner: p.runner,
      trials: p.trials,
      baseline_trials: p.baselineTrials,
    })),
    runners: r.runners,
    ...(r.mergedFrom ? { merged_from: r.mergedFrom } : {}),
  };
}
