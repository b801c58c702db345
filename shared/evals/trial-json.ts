import type { AssertionResult, TrialOutcome, TrialResult, Tri } from './model';
import { ASSERTION_KINDS } from './model';

/**
 * One trial in `skillsmith eval --json`, in that output's snake_case, and back. The JSON
 * carries every trial whole so that `eval merge` can recompute scores from shards' trials
 * rather than average their averages.
 */
export function trialJson(t: TrialResult): Record<string, unknown> {
  return {
    index: t.index,
    baseline: t.baseline,
    task: t.task,
    ...(t.shouldTrigger !== undefined ? { should_trigger: t.shouldTrigger } : {}),
    outcome: t.outcome,
    passed: t.passed,
    exit_code: t.exitCode,
    duration_ms: t.durationMs,
    skill_loaded: t.skillLoaded,
    tools: t.tools,
    changed: t.changed,
    assertions: t.assertions.map((a) => ({ kind: a.kind, status: a.status, detail: a.detail })),
    ...(t.message !== undefined ? { message: t.message } : {}),
    ...(t.usage
      ? {
          usage: {
            input_tokens: t.usage.inputTokens,
            output_tokens: t.usage.outputTokens,
            ...(t.usage.cachedTokens !== undefined ? { cached_tokens: t.usage.cachedTokens } : {}),
            ...(t.usage.costUsd !== undefined ? { cost_usd: t.usage.costUsd } : {}),
          },
        }
      : {}),
  };
}

const OUTCOMES: readonly TrialOutcome[] = [
  'completed',
  'timeout',
  'not-found',
  'crashed',
  'unparseable',
  'refused',
  'cancelled',
];

/** The trial back from its JSON, or a one-line reason (`at` names where it sits). */
export function trialFromJson(v: unknown, at: string): TrialResult | string {
  const o = asRecord(v);
  if (!o) return `${at}: not an object`;
  const bad = (field: string): string => `${at}.${field}: missing or malformed`;
  const index = o.index;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return bad('index');
  if (typeof o.baseline !== 'boolean') return bad('baseline');
  if (typeof o.task !== 'string') return bad('task');
  if (o.should_trigger !== undefined && typeof o.should_trigger !== 'boolean') return bad('should_trigger');
  if (!OUTCOMES.includes(o.outcome as TrialOutcome)) return bad('outcome');
  if (typeof o.passed !== 'boolean') return bad('passed');
  if (o.exit_code !== null && typeof o.exit_code !== 'number') return bad('exit_code');
  if (typeof o.duration_ms !== 'number') return bad('duration_ms');
  if (!['yes', 'no', 'unknown'].includes(o.skill_loaded as string)) return bad('skill_loaded');
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
  if (!strings(o.tools)) return bad('tools');
  if (!strings(o.changed)) return bad('changed');
  if (!Array.isArray(o.assertions)) return bad('assertions');
  const assertions: AssertionResult[] = [];
  for (const a of o.assertions) {
    const r = asRecord(a);
    if (
      !r ||
      !ASSERTION_KINDS.includes(r.kind as AssertionResult['kind']) ||
      !['pass', 'fail', 'unknown'].includes(r.status as string) ||
      typeof r.detail !== 'string'
    )
      return bad('assertions');
    assertions.push({
      kind: r.kind as AssertionResult['kind'],
      status: r.status as AssertionResult['status'],
      detail: r.detail,
    });
  }
  if (o.message !== undefined && typeof o.message !== 'string') return bad('message');
  let usage: TrialResult['usage'];
  if (o.usage !== undefined) {
    const u = asRecord(o.usage);
    const num = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x >= 0;
    if (
      !u ||
      !num(u.input_tokens) ||
      !num(u.output_tokens) ||
      (u.cached_tokens !== undefined && !num(u.cached_tokens)) ||
      (u.cost_usd !== undefined && !num(u.cost_usd))
    )
      return bad('usage');
    usage = {
      inputTokens: u.input_tokens as number,
      outputTokens: u.output_tokens as number,
      ...(u.cached_tokens !== undefined ? { cachedTokens: u.cached_tokens as number } : {}),
      ...(u.cost_usd !== undefined ? { costUsd: u.cost_usd as number } : {}),
    };
  }
  return {
    index,
    baseline: o.baseline,
    task: o.task,
    ...(o.should_trigger !== undefined ? { shouldTrigger: o.should_trigger as boolean } : {}),
    outcome: o.outcome as TrialOutcome,
    exitCode: o.exit_code as number | null,
    durationMs: o.duration_ms,
    passed: o.passed,
    skillLoaded: o.skill_loaded as Tri,
    tools: o.tools,
    assertions,
    changed: o.changed,
    ...(o.message !== undefined ? { message: o.message as string } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** A JSON object (not an array, not null) as a record, else undefined. */
export function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
