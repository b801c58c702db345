/**
 * What lets the dashboard paint before its scan finishes, and what sets a bare folder up:
 * the last scan kept per project in the app's data folder (only ever read back for its own
 * project, shape-checked, bounded), and `init` from the app (never overwriting).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../shared/ipc/channels/project';
import { dispatch } from '../../main/ipc/dispatch';
import { DashboardCache, readCachedDashboard, storeDashboard } from '../../main/services/dashboard/cache';
import { ProjectHub } from '../../main/services/dashboard/hub';
import { runJob } from '../../main/services/dashboard/jobs';
import { scanProject } from '../../main/services/dashboard/scan';
import { INIT_TEMPLATE, initProject } from '../../main/services/project/init';
import { templateWithTargets } from '../../shared/targets/choose';
import { scratch, testPlatform, testSession, type Scratch } from './helpers';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

describe('the last scan, kept for the next launch', () => {
  it('is stored by the scan job and read back by a new hub for the same project only', async () => {
    const cache = new DashboardCache(s.dataDir);
    const file = cache.fileFor(s.project);
    expect(file.startsWith(join(s.dataDir, 'dashboards'))).toBe(true);
    // The file name carries no path text.
    expect(file).not.toContain('workspace');
    const fresh = runJob({ kind: 'scan', root: s.project, cacheFile: file });
    const hub = new ProjectHub(undefined, 40, cache);
    const h = hub.acquire(s.project, () => undefined);
    try {
      const kept = h.cachedDashboard()!;
      expect(kept).toEqual(JSON.parse(JSON.stringify(fresh)));
      expect(kept.scannedAt).toBe(fresh.scannedAt);
      // A fresh scan through the hub replaces it.
      const again = await h.dashboard();
      expect(h.cachedDashboard()!.scannedAt).toBe(again.scannedAt);
    } finally {
      h.release();
      hub.closeAll();
    }
    // Another project, or a hub without a cache, gets nothing.
    const other = join(s.dir, 'other');
    mkdirSync(other);
    const hub2 = new ProjectHub(undefined, 40, cache);
    const h2 = hub2.acquire(other, () => undefined);
    expect(h2.cachedDashboard()).toBeNull();
    h2.release();
    hub2.closeAll();
    const hub3 = new ProjectHub(undefined, 40);
    const h3 = hub3.acquire(s.project, () => undefined);
    expect(h3.cachedDashboard()).toBeNull();
    h3.release();
    hub3.closeAll();
  });

  it('reads a corrupt, foreign or misplaced file as nothing', () => {
    const cache = new DashboardCache(s.dataDir);
    const file = cache.fileFor(s.project);
    const d = scanProject(s.project);
    storeDashboard(file, d);
    const hub = new ProjectHub(undefined, 40, cache);
    const h = hub.acquire(s.project, () => undefined);
    try {
      expect(h.cachedDashboard()).not.toBeNull();
      writeFileSync(file, '{"version":1,');
      expect(h.cachedDashboard()).toBeNull();
      writeFileSync(file, JSON.stringify({ version: 1, root: s.project, dashboard: { ...d, skills: 'many' } }));
      expect(h.cachedDashboard()).toBeNull();
      writeFileSync(file, JSON.stringify({ version: 2, root: s.project, dashboard: d }));
      expect(h.cachedDashboard()).toBeNull();
      // Another project's scan under this project's name (copied by hand) is not shown as this one's.
      const elsewhere: Dashboard = { ...d, project: { root: '/elsewhere', name: 'elsewhere' } };
      writeFileSync(file, JSON.stringify({ version: 1, root: s.project, dashboard: elsewhere }));
      expect(h.cachedDashboard()).toBeNull();
      expect(readCachedDashboard(join(s.dataDir, 'none.json'), s.project)).toBeNull();
    } finally {
      h.release();
      hub.closeAll();
    }
  });

  it('reaches the window only through the contract: a kept scan of the wrong shape is refused there', async () => {
    const cache = new DashboardCache(s.dataDir);
    const file = cache.fileFor(s.project);
    const d = scanProject(s.project);
    const { session } = testSession(testPlatform(s.dataDir, { hub: new ProjectHub(undefined, 40, cache) }));
    session.open(s.project);
    try {
      expect(await dispatch('project.cachedDashboard', {}, { session })).toEqual({
        ok: true,
        value: { dashboard: null },
      });
      storeDashboard(file, d);
      expect(await dispatch('project.cachedDashboard', {}, { session })).toEqual({
        ok: true,
        value: { dashboard: JSON.parse(JSON.stringify(d)) },
      });
      const bad = { ...d, skills: [{ ...d.skills[0], lint: 'fine' }] };
      writeFileSync(file, JSON.stringify({ version: 1, root: s.project, dashboard: bad }));
      expect(await dispatch('project.cachedDashboard', {}, { session })).toMatchObject({
        ok: false,
        error: { code: 'invalid-response' },
      });
    } finally {
      session.dispose();
    }
  });

  it('keeps the twelve most recent projects and removes only its own files', () => {
    const cache = new DashboardCache(s.dataDir);
    const d = scanProject(s.project);
    const files: string[] = [];
    for (let i = 0; i < 14; i++) {
      const root = `/projects/p${i}`;
      const f = cache.fileFor(root);
      storeDashboard(f, { ...d, project: { root, name: `p${i}` } });
      // Oldest first, a second apart.
      utimesSync(f, new Date(1_700_000_000_000 + i * 1000), new Date(1_700_000_000_000 + i * 1000));
      files.push(f);
    }
    writeFileSync(join(cache.dir, 'notes.txt'), 'mine, not the app’s');
    storeDashboard(files[13]!, { ...d, project: { root: '/projects/p13', name: 'p13' } });
    const left = readdirSync(cache.dir).sort();
    expect(left).toContain('notes.txt');
    expect(left.filter((n) => n.endsWith('.json'))).toHaveLength(12);
    expect(existsSync(files[0]!)).toBe(false);
    expect(existsSync(files[1]!)).toBe(false);
    expect(existsSync(files[2]!)).toBe(true);
  });

  it('a scan whose cache cannot be written still answers', () => {
    const file = join(s.dir, 'not-a-folder', 'x.json');
    writeFileSync(join(s.dir, 'not-a-folder'), 'a file where the folder should be');
    expect(runJob({ kind: 'scan', root: s.project, cacheFile: file }).skills).toHaveLength(5);
  });
});

describe('init from the app', () => {
  it('writes the template and .kitbash/skills/, then reports a second call as nothing to do', async () => {
    const dir = mkdtempSync(join(s.dir, 'bare-'));
    const { session } = testSession(testPlatform(s.dataDir));
    session.open(dir);
    try {
      const before = await dispatch('project.dashboard', {}, { session });
      expect(before).toMatchObject({ ok: true, value: { hasConfig: false } });
      // Before set-up every target is offered with its price; the renderer's choice is checked in main.
      if (!before.ok) throw new Error('no dashboard');
      const offered = (before.value as Dashboard).targets;
      expect(offered.every((t) => t.setup !== null)).toBe(true);
      expect(await dispatch('project.init', {}, { session })).toMatchObject({
        ok: false,
        error: { code: 'invalid-request' },
      });
      expect(await dispatch('project.init', { targets: ['emacs'] }, { session })).toMatchObject({
        ok: false,
        error: { code: 'invalid-request' },
      });
      expect(existsSync(join(dir, 'kitbash.toml'))).toBe(false);
      expect(await dispatch('project.init', { targets: ['cursor'] }, { session })).toEqual({
        ok: true,
        value: { created: true },
      });
      expect(readFileSync(join(dir, 'kitbash.toml'), 'utf8')).toBe(templateWithTargets(INIT_TEMPLATE, ['cursor']));
      expect(statSync(join(dir, '.kitbash', 'skills')).isDirectory()).toBe(true);
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      expect(await dispatch('project.init', { targets: ['cursor'] }, { session })).toEqual({
        ok: true,
        value: { created: false },
      });
      expect(scanProject(dir).hasConfig).toBe(true);
    } finally {
      session.dispose();
    }
  });

  it('never overwrites a kitbash.toml it did not write', () => {
    const mine = '[project]\ntargets = ["cursor"]\n# my own\n';
    writeFileSync(join(s.project, 'kitbash.toml'), mine);
    expect(initProject(s.project, ['cursor'])).toBe(false);
    expect(readFileSync(join(s.project, 'kitbash.toml'), 'utf8')).toBe(mine);
    expect(readdirSync(s.project).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
