/**
 * What the Costs and Matrix views draw before and after their fresh report: the kept one
 * only while the fresh one is pending, never in place of a failed one.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { shownReport } from '../../renderer/src/views/kept-report';

type R = { n: number };
const query = (q: Partial<UseQueryResult<R>>) => q as UseQueryResult<R>;
const kept = { at: '2026-12-07T10:00:00.000Z', report: { n: 1 } };

describe('a report view’s first paint', () => {
  it('draws the kept report, with its date, while the fresh one is pending', () => {
    expect(shownReport(query({ isPending: true, data: undefined }), kept)).toMatchObject({
      report: { n: 1 },
      keptAt: kept.at,
    });
  });

  it('draws nothing (the spinner) while pending with nothing kept, or the kept file not read yet', () => {
    expect(shownReport(query({ isPending: true, data: undefined }), null).report).toBeUndefined();
    expect(shownReport(query({ isPending: true, data: undefined }), undefined).report).toBeUndefined();
  });

  it('replaces the kept report with the fresh one, unmarked', () => {
    expect(shownReport(query({ isPending: false, data: { n: 2 } }), kept)).toMatchObject({
      report: { n: 2 },
      keptAt: null,
    });
  });

  it('never falls back to the kept report once the fresh one failed', () => {
    expect(shownReport(query({ isPending: false, isError: true, data: undefined }), kept)).toMatchObject({
      report: undefined,
      keptAt: null,
    });
  });
});
