/** Small pure pieces of the Evals view: rates as text, and the grid's cells. */
import type { EvalProgress, EvalResultView, EvalsOverview } from '../../../../shared/ipc/channels/evals';

/** A rate as a whole percentage, `—` when there is none. */
export const pct = (x: number | null | undefined): string =>
  x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`;
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.round(Math.abs(x) * 100)}%`;

/** The skill's effect, e.g. `+67% [+12%, +90%]`. */
export function deltaText(r: Pick<EvalResultView, 'delta'>): string {
  if (!r.delta) return '';
  return r.delta.interval
    ? `${signed(r.delta.value)} [${signed(r.delta.interval.low)}, ${signed(r.delta.interval.high)}]`
    : signed(r.delta.value);
}

/** One result of the grid, with the run it came from. */
export interface Cell {
  readonly runId: string;
  readonly result: EvalResultView;
}

/** The grid cell of an eval on a runner. */
export const cellKey = (evalName: string, runner: string): string => `${evalName}\0${runner}`;

/** A skill's cells: the newest stored result per eval and runner, with the running run's results over them. */
export function cellsOf(
  latest: EvalsOverview['latest'],
  progress: EvalProgress | undefined,
  skill: string,
): Map<string, Cell> {
  const m = new Map<string, Cell>();
  for (const l of latest) if (l.result.skill === skill) m.set(cellKey(l.result.eval, l.result.runner), l);
  for (const r of progress?.results ?? []) m.set(cellKey(r.eval, r.runner), { runId: progress!.runId, result: r });
  return m;
}

/** The grid's columns: the configured runners, any runner a result came from, and the one picked to run. */
export function runnerColumns(
  configured: readonly { id: string }[],
  cells: ReadonlyMap<string, Cell>,
  runner: string,
): string[] {
  const ids = new Set<string>(configured.map((r) => r.id));
  for (const c of cells.values()) ids.add(c.result.runner);
  if (runner) ids.add(runner);
  return [...ids];
}
