import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Dashboard } from '../../../shared/ipc/channels/project';
import { writeFileAtomic } from '../fs/atomic';

/** Projects whose last scan is kept; the oldest beyond this go. */
const KEEP = 12;
const VERSION = 1;

/**
 * The last scan of each recently opened project, in the app's data folder, so the next
 * launch paints the dashboard at once while the fresh scan runs. The renderer shows it
 * marked as what it is (a scan from `scannedAt`) until the fresh one arrives.
 */
export class DashboardCache {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = join(dataDir, 'dashboards');
  }

  /** One file per project root (a hash of the path: no path text in the file name). */
  fileFor(root: string): string {
    return join(this.dir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);
  }
}

/**
 * The stored scan of `root`, or null when there is none or the file is not one of ours
 * (foreign, corrupt, another version, another project's). Only its outline is checked
 * here: the contract checks every answer's shape before it leaves main (the full check
 * of a 1,000-skill scan costs tens of milliseconds, and it would run twice).
 */
export function readCachedDashboard(file: string, root: string): Dashboard | null {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; root?: unknown; dashboard?: unknown };
    if (raw.version !== VERSION || raw.root !== root) return null;
    const d = raw.dashboard as Partial<Dashboard> | null | undefined;
    const outline =
      typeof d === 'object' &&
      d !== null &&
      d.project?.root === root &&
      typeof d.scannedAt === 'string' &&
      Array.isArray(d.skills) &&
      Array.isArray(d.problems);
    return outline ? (d as Dashboard) : null;
  } catch {
    return null;
  }
}

/**
 * Keep `d` as the last scan of its project (atomically), then drop the oldest stored scans
 * beyond the limit. Only files of this folder's own naming are ever removed.
 */
export function storeDashboard(file: string, d: Dashboard): void {
  writeFileAtomic(file, JSON.stringify({ version: VERSION, root: d.project.root, dashboard: d }));
  const dir = join(file, '..');
  const stored = readdirSync(dir)
    .filter((n) => /^[0-9a-f]{32}\.json$/.test(n))
    .map((n) => ({ n, at: statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.at - a.at);
  for (const { n } of stored.slice(KEEP)) rmSync(join(dir, n), { force: true });
}
