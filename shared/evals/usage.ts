import { plural } from '../text/format';
import type { TranscriptFormat, TrialResult, TrialUsage } from './model';
import { asRecord } from './trial-json';

/**
 * What a trial cost, read from its agent's own final accounting (the formats of
 * transcript.ts; see the presets in runners.ts for the docs). Separate from the transcript
 * reader on purpose: usage is bookkeeping, never evidence for an assertion. Anything short
 * of both input and output counts is `undefined` — unknown, never a made-up zero.
 */
export function readUsage(format: TranscriptFormat, stdout: string): TrialUsage | undefined {
  if (format === 'text') return undefined;
  const events = jsonLines(stdout);
  if (format === 'claude-code') {
    // `result` closes the session with the totals of every turn.
    const r = events.filter((e) => e.type === 'result').pop();
    const u = asRecord(r?.usage);
    const input = count(u?.input_tokens);
    const output = count(u?.output_tokens);
    if (!u || input === undefined || output === undefined) return undefined;
    const read = count(u.cache_read_input_tokens);
    const created = count(u.cache_creation_input_tokens);
    const cost = count(r?.total_cost_usd);
    return {
      // Claude's input_tokens leaves out the cached prompt: add it back so input means all of it.
      inputTokens: input + (read ?? 0) + (created ?? 0),
      outputTokens: output,
      ...(read !== undefined ? { cachedTokens: read } : {}),
      ...(cost !== undefined ? { costUsd: cost } : {}),
    };
  }
  if (format === 'codex') {
    // One `turn.completed` per turn, each with that turn's usage: the trial is their sum.
    let total: { inputTokens: number; outputTokens: number; cachedTokens?: number } | undefined;
    for (const e of events) {
      if (e.type !== 'turn.completed') continue;
      const u = asRecord(e.usage);
      const input = count(u?.input_tokens);
      const output = count(u?.output_tokens);
      if (input === undefined || output === undefined) return undefined;
      const cached = count(u?.cached_input_tokens);
      total = {
        inputTokens: (total?.inputTokens ?? 0) + input,
        outputTokens: (total?.outputTokens ?? 0) + output,
        ...(cached !== undefined || total?.cachedTokens !== undefined
          ? { cachedTokens: (total?.cachedTokens ?? 0) + (cached ?? 0) }
          : {}),
      };
    }
    return total;
  }
  const r = events.filter((e) => e.type === 'result').pop();
  const stats = asRecord(r?.stats);
  const input = count(stats?.input_tokens);
  const output = count(stats?.output_tokens);
  if (!stats || input === undefined || output === undefined) return undefined;
  const cached = count(stats.cached);
  return { inputTokens: input, outputTokens: output, ...(cached !== undefined ? { cachedTokens: cached } : {}) };
}

/** Usage over several trials: summed only over the trials that reported it, saying how many did. */
export interface UsageTotal {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedTokens: number;
  /** Null unless some trial reported a cost. */
  readonly costUsd: number | null;
  /** How many of `trials` reported usage. */
  readonly reported: number;
  readonly trials: number;
}

/** Null when no trial reported usage. */
export function totalUsage(trials: readonly Pick<TrialResult, 'usage'>[]): UsageTotal | null {
  const known = trials.flatMap((t) => (t.usage ? [t.usage] : []));
  if (known.length === 0) return null;
  const costs = known.flatMap((u) => (u.costUsd !== undefined ? [u.costUsd] : []));
  return {
    inputTokens: known.reduce((s, u) => s + u.inputTokens, 0),
    outputTokens: known.reduce((s, u) => s + u.outputTokens, 0),
    cachedTokens: known.reduce((s, u) => s + (u.cachedTokens ?? 0), 0),
    costUsd: costs.length ? costs.reduce((s, c) => s + c, 0) : null,
    reported: known.length,
    trials: trials.length,
  };
}

/** `1,200 in (800 cached) / 300 out tokens, $0.0123`. */
export function usageText(
  u: Pick<UsageTotal, 'inputTokens' | 'outputTokens'> & {
    readonly cachedTokens?: number;
    readonly costUsd?: number | null;
  },
): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const cached = u.cachedTokens ? ` (${n(u.cachedTokens)} cached)` : '';
  const cost = u.costUsd !== undefined && u.costUsd !== null ? `, $${u.costUsd.toFixed(4)}` : '';
  return `${n(u.inputTokens)} in${cached} / ${n(u.outputTokens)} out tokens${cost}`;
}

/** A total with how many trials it covers, e.g. `… tokens — 3 of 4 trials reported usage`. */
export function usageTotalText(u: UsageTotal): string {
  return `${usageText(u)} — ${u.reported} of ${plural(u.trials, 'trial')} reported usage`;
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      const v = asRecord(JSON.parse(t));
      if (v) out.push(v);
    } catch {
      // not an event; the transcript reader reports unreadable streams
    }
  }
  return out;
}

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}
