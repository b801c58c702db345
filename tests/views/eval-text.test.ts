/** The Evals view's pure pieces (renderer/src/views/evals/eval-text): rates as text, and the grid's cells. */
import { describe, expect, it } from 'vitest';
import { cellKey, cellsOf, deltaText, pct, runnerColumns } from '../../renderer/src/views/evals/eval-text';
import type { EvalProgress, EvalResultView, EvalsOverview } from '../../shared/ipc/channels/evals';

/** Only the fields the grid reads. */
const result = (skill: string, evalName: string, runner: string, passRate: number) =>
  ({ skill, eval: evalName, runner, passRate }) as EvalResultView;

describe('pct and deltaText', () => {
  it('words rates as whole percentages and the effect with its interval', () => {
    expect(pct(null)).toBe('—');
    expect(pct(undefined)).toBe('—');
    expect(pct(0.666)).toBe('67%');
    expect(deltaText({ delta: null })).toBe('');
    expect(deltaText({ delta: { value: -0.25, interval: null } })).toBe('−25%');
    expect(deltaText({ delta: { value: 0.67, interval: { low: 0.12, high: 0.9 } } })).toBe('+67% [+12%, +90%]');
  });
});

describe('cellsOf and runnerColumns', () => {
  const latest: EvalsOverview['latest'] = [
    { runId: 'old', result: result('a', 'e1', 'claude', 0.5) },
    { runId: 'old', result: result('a', 'e2', 'claude', 1) },
    { runId: 'old', result: result('other', 'e1', 'claude', 0) },
  ];

  it("puts the running run's results over the stored ones, for this skill only", () => {
    const progress = { runId: 'new', results: [result('a', 'e1', 'claude', 1)] } as unknown as EvalProgress;
    const cells = cellsOf(latest, progress, 'a');
    expect([...cells.keys()]).toEqual([cellKey('e1', 'claude'), cellKey('e2', 'claude')]);
    expect(cells.get(cellKey('e1', 'claude'))).toMatchObject({ runId: 'new', result: { passRate: 1 } });
    expect(cells.get(cellKey('e2', 'claude'))?.runId).toBe('old');
    expect(cellsOf(latest, undefined, 'a').get(cellKey('e1', 'claude'))?.runId).toBe('old');
  });

  it('shows the configured runners, every runner a result came from, and the picked one, once each', () => {
    const cells = cellsOf(latest, undefined, 'a');
    expect(runnerColumns([{ id: 'gemini' }], cells, '')).toEqual(['gemini', 'claude']);
    expect(runnerColumns([{ id: 'claude' }], cells, 'stand-in')).toEqual(['claude', 'stand-in']);
  });
});
