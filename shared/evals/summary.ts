import type { EvalFile, EvalResult, TrialResult } from './model';
import { deltaInterval, scoreTrigger, summariseAssertions, triggerRate } from './score';

/** What an eval result says about where its trials came from, beside the trials themselves. */
export interface EvalIdentity {
  readonly skill: string;
  readonly version: string;
  readonly eval: Pick<EvalFile, 'name' | 'tier' | 'threshold'>;
  readonly runner: string;
}

/**
 * An eval's scores recomputed from its trials. The one place rates and intervals come
 * from, so a run and a merge of its shards score the same trials the same way.
 */
export function summariseEval(id: EvalIdentity, trials: readonly TrialResult[], baseline: boolean): EvalResult {
  const e = id.eval;
  const withSkill = trials.filter((t) => !t.baseline);
  const without = trials.filter((t) => t.baseline);
  const k = withSkill.filter((t) => t.passed).length;
  const n = withSkill.length;
  const trigger = e.tier === 'trigger' ? scoreTrigger(withSkill) : undefined;
  const passRate = trigger ? triggerRate(trigger) : n ? k / n : 0;
  const hasBaseline = baseline && e.tier !== 'trigger' && without.length > 0;
  const kb = without.filter((t) => t.passed).length;
  const baselinePassRate = hasBaseline ? kb / without.length : null;
  const delta =
    hasBaseline && n > 0
      ? n > 1
        ? deltaInterval(k, n, kb, without.length)
        : { value: k / n - kb / without.length, interval: null }
      : null;
  const told = withSkill.filter((t) => t.skillLoaded !== 'unknown');
  const unavailable = withSkill.find((t) => t.outcome === 'not-found' || t.outcome === 'refused');
  return {
    skill: id.skill,
    version: id.version,
    eval: e.name,
    tier: e.tier,
    runner: id.runner,
    trials: n,
    threshold: e.threshold,
    passed: n > 0 && passRate >= e.threshold,
    passRate,
    baselinePassRate,
    delta,
    triggeredRate: told.length ? withSkill.filter((t) => t.skillLoaded === 'yes').length / n : null,
    ...(trigger ? { trigger } : {}),
    assertions: summariseAssertions(withSkill),
    trialResults: trials,
    ...(unavailable?.message ? { error: unavailable.message } : {}),
  };
}
