/**
 * What lets Costs and Matrix paint before their reports are computed: the last report of
 * each kept per project beside the kept scan (only ever read back for its own project,
 * outline-checked here and shape-checked at the contract), and pruned with the project's
 * other kept files.
 */
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/dispatch';
import { DashboardCache, readKeptReport, storeDashboard, storeKeptReport } from '../../main/services/dashboard/cache';
import { ProjectHub } from '../../main/services/dashboard/hub';
import { runJob } from '../../main/services/dashboard/jobs';
import { scanProject } from '../../main/services/dashboard/scan';
import { scratch, testPlatform, testSession, type Scratch } from './helpers';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('the last Costs and Matrix reports, kept for the next launch', () => {
  it('are stored by their jobs, one file each beside the scan, and read back for the same project only', async () => {
    const cache = new DashboardCache(s.dataDir);
    const costsFile = cache.fileFor(s.project, 'costs');
    const matrixFile = cache.fileFor(s.project, 'matrix');
    expect(new Set([cache.fileFor(s.project), costsFile, matrixFile]).size).toBe(3);
    expect(costsFile.startsWith(cache.dir)).toBe(true);
    expect(costsFile).not.toContain('workspace');

    const hub = new ProjectHub(undefined, 40, cache);
    const h = hub.acquire(s.project, () => undefined);
    try {
      expect(h.keptReport('costs')).toBeNull();
      expect(h.keptReport('matrix')).toBeNull();
      const before = Date.now();
      const costs = await h.costs();
      const matrix = await h.matrix();
      expect(costs.skills.length).toBeGreaterThan(0);
      const keptCosts = h.keptReport('costs')!;
      expect(keptCosts.report).toEqual(json(costs));
      expect(Date.parse(keptCosts.at)).toBeGreaterThanOrEqual(before - 1000);
      expect(h.keptReport('matrix')!.report).toEqual(json(matrix));
    } finally {
      h.release();
      hub.closeAll();
    }
    // A hub without a cache keeps nothing and reads nothing.
    const bare = new ProjectHub(undefined, 40);
    const h2 = bare.acquire(s.project, () => undefined);
    expect(h2.keptReport('costs')).toBeNull();
    h2.release();
    bare.closeAll();
    // Another project's report copied under this project's name is not read as this one's.
    expect(readKeptReport(costsFile, '/elsewhere', 'costs')).toBeNull();
  });

  it('reads a corrupt, foreign or misshapen file as nothing', () => {
    const cache = new DashboardCache(s.dataDir);
    const file = cache.fileFor(s.project, 'matrix');
    const matrix = runJob({ kind: 'matrix', root: s.project, generation: -1, cacheFile: file });
    expect(readKeptReport(file, s.project, 'matrix')!.report).toEqual(json(matrix));
    // A matrix is not a costs report.
    expect(readKeptReport(file, s.project, 'costs')).toBeNull();
    writeFileSync(file, '{"version":1,');
    expect(readKeptReport(file, s.project, 'matrix')).toBeNull();
    writeFileSync(file, JSON.stringify({ version: 2, root: s.project, at: 'x', report: matrix }));
    expect(readKeptReport(file, s.project, 'matrix')).toBeNull();
    writeFileSync(file, JSON.stringify({ version: 1, root: s.project, report: matrix }));
    expect(readKeptReport(file, s.project, 'matrix')).toBeNull();
    expect(readKeptReport(join(s.dataDir, 'none.json'), s.project, 'matrix')).toBeNull();
  });

  it('reach the window only through the contract: a kept report of the wrong shape is refused there', async () => {
    const cache = new DashboardCache(s.dataDir);
    const file = cache.fileFor(s.project, 'costs');
    const { session } = testSession(testPlatform(s.dataDir, { hub: new ProjectHub(undefined, 40, cache) }));
    session.open(s.project);
    try {
      expect(await dispatch('reports.keptCosts', {}, { session })).toEqual({ ok: true, value: { kept: null } });
      const fresh = await dispatch('reports.costs', {}, { session });
      if (!fresh.ok) throw new Error('no costs report');
      const kept = await dispatch('reports.keptCosts', {}, { session });
      expect(kept).toMatchObject({ ok: true, value: { kept: { report: json(fresh.value) } } });
      expect(await dispatch('reports.keptMatrix', {}, { session })).toEqual({ ok: true, value: { kept: null } });
      storeKeptReport(file, s.project, { skills: [{ skill: 'x' }], listings: [] } as never);
      expect(await dispatch('reports.keptCosts', {}, { session })).toMatchObject({
        ok: false,
        error: { code: 'invalid-response' },
      });
    } finally {
      session.dispose();
    }
  });

  it('a report whose cache cannot be written still answers', () => {
    writeFileSync(join(s.dir, 'not-a-folder'), 'a file where the folder should be');
    const file = join(s.dir, 'not-a-folder', 'x.costs.json');
    expect(runJob({ kind: 'costs', root: s.project, generation: -2, cacheFile: file }).skills).toHaveLength(5);
  });

  it('keeps the twelve most recent projects, each with its reports, and removes only its own files', () => {
    const cache = new DashboardCache(s.dataDir);
    const d = scanProject(s.project);
    const costs = runJob({ kind: 'costs', root: s.project, generation: -3 });
    const roots = Array.from({ length: 14 }, (_, i) => `/projects/p${i}`);
    roots.forEach((root, i) => {
      storeDashboard(cache.fileFor(root), { ...d, project: { root, name: `p${i}` } });
      storeKeptReport(cache.fileFor(root, 'costs'), root, costs);
      // Oldest first, a second apart; a project is as recent as its newest file.
      const at = new Date(1_700_000_000_000 + i * 1000);
      utimesSync(cache.fileFor(root), at, at);
      utimesSync(cache.fileFor(root, 'costs'), new Date(1_600_000_000_000), new Date(1_600_000_000_000));
    });
    writeFileSync(join(cache.dir, 'notes.json'), 'mine, not the app’s');
    storeKeptReport(
      cache.fileFor(roots[13]!, 'matrix'),
      roots[13]!,
      runJob({ kind: 'matrix', root: s.project, generation: -3 }),
    );
    const left = readdirSync(cache.dir);
    expect(left).toContain('notes.json');
    expect(left.filter((n) => /^[0-9a-f]{32}\.json$/.test(n))).toHaveLength(12);
    expect(left.filter((n) => n.endsWith('.costs.json'))).toHaveLength(12);
    for (const gone of roots.slice(0, 2)) {
      expect(existsSync(cache.fileFor(gone))).toBe(false);
      expect(existsSync(cache.fileFor(gone, 'costs'))).toBe(false);
    }
    expect(existsSync(cache.fileFor(roots[2]!, 'costs'))).toBe(true);
    expect(existsSync(cache.fileFor(roots[13]!, 'matrix'))).toBe(true);
  });
});
