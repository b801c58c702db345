/** The matrix view's filters over the report main sends: search, status and target. */
import { describe, expect, it } from 'vitest';
import type { MatrixReport } from '../../shared/ipc/channels/reports';
import { cellKey, parseArg, visibleGrid } from '../../renderer/src/views/matrix/cells';

const report: MatrixReport = {
  skills: ['alpha', 'beta', 'gamma'],
  targets: ['claude-code', 'cursor', 'aider'],
  cells: [
    { skill: 'alpha', target: 'claude-code', status: 'full', reasons: [] },
    { skill: 'alpha', target: 'cursor', status: 'degraded', reasons: [{ code: 'x', message: 'x' }] },
    { skill: 'alpha', target: 'aider', status: 'unsupported', reasons: [] },
    { skill: 'beta', target: 'claude-code', status: 'full', reasons: [] },
    { skill: 'beta', target: 'cursor', status: 'full', reasons: [] },
    { skill: 'beta', target: 'aider', status: 'unsupported', reasons: [] },
    { skill: 'gamma', target: 'claude-code', status: 'full', reasons: [] },
    { skill: 'gamma', target: 'cursor', status: 'full', reasons: [] },
    { skill: 'gamma', target: 'aider', status: 'degraded', reasons: [] },
  ],
  failures: [],
  dirs: {},
  enforcement: [],
  active: { targets: ['claude-code', 'cursor'], explicit: true },
};
const byKey = new Map(report.cells.map((c) => [cellKey(c.skill, c.target), c]));
const grid = (f: Partial<Parameters<typeof visibleGrid>[2]>) =>
  visibleGrid(report, byKey, { query: '', status: 'all', target: 'all', active: report.active.targets, ...f });

describe('visibleGrid', () => {
  it('shows everything by default, with the counts per status', () => {
    expect(grid({})).toEqual({
      targets: ['claude-code', 'cursor', 'aider'],
      skills: ['alpha', 'beta', 'gamma'],
      counts: { full: 5, degraded: 2, unsupported: 2 },
    });
  });

  it('searches names, keeps rows with a cell of the chosen status, and narrows the columns', () => {
    expect(grid({ query: ' AM ' }).skills).toEqual(['gamma']);
    expect(grid({ status: 'degraded' }).skills).toEqual(['alpha', 'gamma']);
    expect(grid({ status: 'degraded', target: 'active' })).toMatchObject({
      targets: ['claude-code', 'cursor'],
      skills: ['alpha'],
      counts: { full: 5, degraded: 1, unsupported: 0 },
    });
    expect(grid({ target: 'aider', status: 'full' }).skills).toEqual([]);
  });
});

describe('parseArg', () => {
  it('reads skill@target from the route, and nothing else', () => {
    expect(parseArg('prereview@cursor')).toEqual({ skill: 'prereview', target: 'cursor' });
    expect(parseArg('prereview')).toBeNull();
    expect(parseArg(undefined)).toBeNull();
  });
});
