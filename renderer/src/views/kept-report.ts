/**
 * The Costs and Matrix views' first paint: the fresh report once main has it, and until then
 * the one kept from the last time the project was open, marked as not current. A failed
 * fresh report never falls back to the kept one. (The banner: components/KeptNote.tsx.)
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { CostsReport, MatrixReport } from '../../../shared/ipc/channels/reports';
import { useCostsReport, useKeptReport, useMatrixReport } from '../queries';

export interface ShownReport<R> {
  readonly query: UseQueryResult<R>;
  /** What to draw: the fresh report, else the kept one while the fresh one is computed. */
  readonly report: R | undefined;
  /** When the kept report shown was computed; null when the fresh one is shown. */
  readonly keptAt: string | null;
}

/** What a report view draws, from its fresh query and the kept report (null: none kept; undefined: not read yet). */
export function shownReport<R>(
  query: UseQueryResult<R>,
  kept: { at: string; report: R } | null | undefined,
): ShownReport<R> {
  if (query.data !== undefined) return { query, report: query.data, keptAt: null };
  if (query.isPending && kept) return { query, report: kept.report, keptAt: kept.at };
  return { query, report: undefined, keptAt: null };
}

export function useShownCosts(root: string): ShownReport<CostsReport> {
  const query = useCostsReport(root);
  const kept = useKeptReport(root, 'costs', query.isPending);
  return shownReport(query, kept.data);
}

export function useShownMatrix(root: string): ShownReport<MatrixReport> {
  const query = useMatrixReport(root);
  const kept = useKeptReport(root, 'matrix', query.isPending);
  return shownReport(query, kept.data);
}
