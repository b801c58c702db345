import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Dashboard } from '../../../shared/ipc/channels/project';
import type { CostsReport, KeptReport, MatrixReport } from '../../../shared/ipc/channels/reports';
import { writeFileAtomic } from '../fs/atomic';

/** Projects whose last answers are kept; the oldest beyond this go. */
const KEEP = 12;
const VERSION = 1;

/** What is kept per project: the dashboard's scan and the two report views' figures. */
export type Kept = 'scan' | 'costs' | 'matrix';

/** `<hash>.json` for the scan (its name from before the reports were kept), `<hash>.<kind>.json` for a report. */
const OURS = /^([0-9a-f]{32})(?:\.(?:costs|matrix))?\.json$/;

/**
 * The last scan and reports of each recently opened project, in the app's data folder, so
 * the next launch paints the dashboard, Costs and Matrix at once while the fresh answers are
 * computed. The renderer shows each marked as what it is (kept from an earlier run) until
 * the fresh one arrives.
 */
export class DashboardCache {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = join(dataDir, 'dashboards');
  }

  /** One file per project root and kind (a hash of the path: no path text in the file name). */
  fileFor(root: string, kind: Kept = 'scan'): string {
    const hash = createHash('sha256').update(root).digest('hex').slice(0, 32);
    return join(this.dir, kind === 'scan' ? `${hash}.json` : `${hash}.${kind}.json`);
  }
}

/** The stored file's envelope, when it is of this version and this project; else null. */
function readEnvelope(file: string, root: string): Record<string, unknown> | null {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
    return raw?.version === VERSION && raw.root === root ? raw : null;
  } catch {
    return null;
  }
}

/**
 * The stored scan of `root`, or null when there is none or the file is not one of ours
 * (foreign, corrupt, another version, another project's). Only its outline is checked
 * here: the contract checks every answer's shape before it leaves main (the full check
 * of a 1,000-skill scan costs tens of milliseconds, and it would run twice).
 */
export function readCachedDashboard(file: string, root: string): Dashboard | null {
  const d = readEnvelope(file, root)?.dashboard as Partial<Dashboard> | null | undefined;
  const outline =
    typeof d === 'object' &&
    d !== null &&
    d.project?.root === root &&
    typeof d.scannedAt === 'string' &&
    Array.isArray(d.skills) &&
    Array.isArray(d.problems);
  return outline ? (d as Dashboard) : null;
}

/** Whether a stored report has the outline of its kind (the contract checks the rest). */
const OUTLINES = {
  costs: (r: Partial<CostsReport>) => Array.isArray(r.skills) && Array.isArray(r.listings),
  matrix: (r: Partial<MatrixReport>) => Array.isArray(r.skills) && Array.isArray(r.cells),
} as const;

/** The stored report of `root` and when it was made, or null (as `readCachedDashboard`). */
export function readKeptReport<K extends 'costs' | 'matrix'>(
  file: string,
  root: string,
  kind: K,
): KeptReport<K> | null {
  const raw = readEnvelope(file, root);
  const report = raw?.report;
  if (typeof raw?.at !== 'string' || typeof report !== 'object' || report === null) return null;
  return OUTLINES[kind](report) ? ({ at: raw.at, report } as KeptReport<K>) : null;
}

/**
 * Keep `d` as the last scan of its project (atomically), then drop the oldest projects'
 * files beyond the limit.
 */
export function storeDashboard(file: string, d: Dashboard): void {
  writeFileAtomic(file, JSON.stringify({ version: VERSION, root: d.project.root, dashboard: d }));
  prune(file);
}

/** Keep `report` as the last of its kind for `root`, stamped with when it was made. */
export function storeKeptReport(file: string, root: string, report: CostsReport | MatrixReport): void {
  writeFileAtomic(file, JSON.stringify({ version: VERSION, root, at: new Date().toISOString(), report }));
  prune(file);
}

/**
 * Only files of this folder's own naming are ever removed, a project's files together; a
 * project is as recent as its newest file.
 */
function prune(file: string): void {
  const dir = join(file, '..');
  const newest = new Map<string, number>();
  const names: { n: string; project: string }[] = [];
  for (const n of readdirSync(dir)) {
    const m = OURS.exec(n);
    if (!m) continue;
    const at = statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    newest.set(m[1]!, Math.max(newest.get(m[1]!) ?? 0, at));
    names.push({ n, project: m[1]! });
  }
  const old = new Set(
    [...newest]
      .sort((a, b) => b[1] - a[1])
      .slice(KEEP)
      .map(([p]) => p),
  );
  for (const { n, project } of names) if (old.has(project)) rmSync(join(dir, n), { force: true });
}
