/**
 * Tokens per trial (shared/evals/usage.ts): read from each agent's own final accounting,
 * unknown (never zero) when the transcript does not report it, and totals that say how
 * many trials they cover.
 */
import { describe, expect, it } from 'vitest';
import type { TrialResult } from '../../shared/evals/model';
import { TrialView } from '../../shared/ipc/channels/evals';
import { evalHuman, evalJson } from '../../shared/evals/report';
import { summariseEval } from '../../shared/evals/summary';
import { trialFromJson, trialJson } from '../../shared/evals/trial-json';
import { readUsage, totalUsage, usageTotalText } from '../../shared/evals/usage';

const lines = (...xs: unknown[]): string => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';

describe('readUsage', () => {
  it('Claude Code: the final result line, cached prompt tokens counted as input too, and the cost', () => {
    const out = lines(
      { type: 'system', subtype: 'init' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'hi' }] } },
      {
        type: 'result',
        subtype: 'success',
        duration_ms: 5123,
        usage: {
          input_tokens: 12,
          output_tokens: 340,
          cache_read_input_tokens: 9000,
          cache_creation_input_tokens: 800,
        },
        total_cost_usd: 0.0421,
      },
    );
    expect(readUsage('claude-code', out)).toEqual({
      inputTokens: 9812,
      outputTokens: 340,
      cachedTokens: 9000,
      costUsd: 0.0421,
    });
  });

  it('Codex: every turn.completed summed', () => {
    const out = lines(
      { type: 'thread.started' },
      { type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 7 } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'x' } },
      { type: 'turn.completed', usage: { input_tokens: 50, cached_input_tokens: 10, output_tokens: 3 } },
    );
    expect(readUsage('codex', out)).toEqual({ inputTokens: 150, outputTokens: 10, cachedTokens: 50 });
  });

  it('Gemini: the result line stats', () => {
    const out = lines(
      { type: 'init' },
      {
        type: 'result',
        status: 'success',
        stats: { total_tokens: 30, input_tokens: 20, output_tokens: 10, duration_ms: 900, tool_calls: 1 },
      },
    );
    expect(readUsage('gemini', out)).toEqual({ inputTokens: 20, outputTokens: 10 });
  });

  it('unknown, not zero, when the transcript does not say', () => {
    expect(readUsage('text', 'Done. 100 tokens.')).toBeUndefined();
    expect(readUsage('claude-code', lines({ type: 'result', subtype: 'success', result: 'ok' }))).toBeUndefined();
    expect(readUsage('claude-code', lines({ type: 'result', usage: { input_tokens: 3 } }))).toBeUndefined();
    // Gemini's total alone does not split into input and output.
    expect(
      readUsage('gemini', lines({ type: 'result', status: 'success', stats: { total_tokens: 15 } })),
    ).toBeUndefined();
    expect(readUsage('codex', lines({ type: 'turn.started' }))).toBeUndefined();
    // A turn without usage makes the sum unknowable.
    expect(
      readUsage(
        'codex',
        lines({ type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } }, { type: 'turn.completed' }),
      ),
    ).toBeUndefined();
    expect(readUsage('claude-code', 'not json\n')).toBeUndefined();
    expect(
      readUsage('claude-code', lines({ type: 'result', usage: { input_tokens: -1, output_tokens: 2 } })),
    ).toBeUndefined();
  });
});

const trial = (index: number, usage?: TrialResult['usage']): TrialResult => ({
  index,
  baseline: false,
  task: 't',
  outcome: 'completed',
  exitCode: 0,
  durationMs: 1000,
  passed: true,
  skillLoaded: 'yes',
  tools: [],
  assertions: [{ kind: 'exit_code', status: 'pass', detail: 'exit 0' }],
  changed: [],
  ...(usage ? { usage } : {}),
});

describe('usage totals and output', () => {
  const trials = [
    trial(0, { inputTokens: 100, outputTokens: 10, cachedTokens: 60, costUsd: 0.01 }),
    trial(1),
    trial(2, { inputTokens: 50, outputTokens: 5 }),
  ];

  it('sums only the trials that reported usage and says how many did', () => {
    const t = totalUsage(trials)!;
    expect(t).toEqual({ inputTokens: 150, outputTokens: 15, cachedTokens: 60, costUsd: 0.01, reported: 2, trials: 3 });
    expect(usageTotalText(t)).toBe('150 in (60 cached) / 15 out tokens, $0.0100 — 2 of 3 trials reported usage');
    expect(totalUsage([trial(0)])).toBeNull();
  });

  it('per trial, per eval and per run in --json; per eval and per run in the human output', () => {
    const r = summariseEval(
      { skill: 's', version: '1.0.0', eval: { name: 'e', tier: 'behavioral', threshold: 1 }, runner: 'cx' },
      trials,
      false,
    );
    const j = JSON.parse(evalJson([r])) as {
      results: Array<{ usage: unknown; trial_results: Array<{ usage?: unknown }> }>;
      usage: unknown;
    };
    expect(j.results[0]!.trial_results.map((t) => t.usage)).toEqual([
      { input_tokens: 100, output_tokens: 10, cached_tokens: 60, cost_usd: 0.01 },
      undefined,
      { input_tokens: 50, output_tokens: 5 },
    ]);
    const total = {
      input_tokens: 150,
      output_tokens: 15,
      cached_tokens: 60,
      cost_usd: 0.01,
      trials_reported: 2,
      trials: 3,
    };
    expect(j.results[0]!.usage).toEqual(total);
    expect(j.usage).toEqual(total);
    const human = evalHuman([r]);
    expect(human).toContain(
      '  tokens e (cx): 150 in (60 cached) / 15 out tokens, $0.0100 — 2 of 3 trials reported usage',
    );
    expect(human).toContain(
      'tokens in all: 150 in (60 cached) / 15 out tokens, $0.0100 — 2 of 3 trials reported usage',
    );
    const none = summariseEval(
      { skill: 's', version: '1.0.0', eval: { name: 'e', tier: 'behavioral', threshold: 1 }, runner: 'cc' },
      [trial(0)],
      false,
    );
    expect(evalHuman([none])).not.toContain('tokens');
    expect((JSON.parse(evalJson([none])) as { usage: unknown }).usage).toBeNull();
  });

  it('a trial survives its JSON unchanged', () => {
    for (const t of [...trials, { ...trial(3), shouldTrigger: false, message: 'm', exitCode: null }])
      expect(trialFromJson(JSON.parse(JSON.stringify(trialJson(t))), 'x')).toEqual(t);
    expect(trialFromJson({ ...trialJson(trial(0)), outcome: 'nope' }, 'a.json: results[0].trial_results[0]')).toBe(
      'a.json: results[0].trial_results[0].outcome: missing or malformed',
    );
  });

  it('reaches the app: the trial view the IPC answers with keeps it', () => {
    expect(TrialView.parse(trials[0]).usage).toEqual({
      inputTokens: 100,
      outputTokens: 10,
      cachedTokens: 60,
      costUsd: 0.01,
    });
    expect('usage' in TrialView.parse(trials[1])).toBe(false);
  });
});
