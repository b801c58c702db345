import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../workspace/project-lock';

/** Private temp folders a fetch makes: a git clone, or the staged copies an install reviews. */
export type TempKind = 'clone' | 'stage';

/**
 * A fresh private (0700) temp folder whose name carries this process's pid
 * (`skillsmith-stage-<pid>-XXXXXX`), so that a later command can tell a folder left by a
 * killed process from one a running install still uses.
 */
export function makeTempDir(kind: TempKind): Promise<string> {
  return mkdtemp(join(tmpdir(), `skillsmith-${kind}-${process.pid}-`));
}

/**
 * Throw a temp folder of this process away: it leaves its path at once (one rename, under
 * a name of the same kind, so a crash before the removal leaves it to the next sweep),
 * and its files are removed in the background. Resolves when they are gone.
 */
export function discardTempDir(dir: string, kind: TempKind): Promise<void> {
  const trash = join(
    tmpdir(),
    `skillsmith-${kind}-${process.pid}-${randomBytes(6).toString('base64url').slice(0, 6).replace(/[-_]/g, 'x')}`,
  );
  let at = dir;
  try {
    renameSync(dir, trash);
    at = trash;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return Promise.resolve();
  }
  return rm(at, { recursive: true, force: true });
}

const MARKED = /^skillsmith-(?:clone|stage|netprobe)-(\d+)-[A-Za-z0-9]{6}$/;
/** Folders from before the pid was part of the name: only the age tells they are abandoned. */
const LEGACY = /^skillsmith-(?:clone|stage|netprobe)-/;
const LEGACY_STALE_MS = 24 * 60 * 60 * 1000;

/** Why a temp folder entry is (not) ours to delete; pure, for the sweep and its tests. */
export function leftoverVerdict(
  name: string,
  st: { isDirectory(): boolean; isSymbolicLink(): boolean; uid: number; mtimeMs: number },
  me: { pid: number; uid: number | undefined; now: number },
  alive: (pid: number) => boolean,
): boolean {
  if (!LEGACY.test(name) || st.isSymbolicLink() || !st.isDirectory()) return false;
  if (me.uid !== undefined && st.uid !== me.uid) return false;
  const m = MARKED.exec(name);
  if (!m) return me.now - st.mtimeMs > LEGACY_STALE_MS;
  const pid = Number(m[1]);
  return pid !== me.pid && !alive(pid);
}

/**
 * Remove the clone, staging and sandbox-probe folders that a killed skillsmith process
 * (`kill -9`, a crash, a power cut) could not remove itself: ours by name and owner, whose process is
 * gone. Every command runs this first, so nothing is left behind for long. Anything else
 * in the temp folder — another user's, a live process's, a symlink — is left alone.
 */
export async function sweepLeftovers(dir = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed; // an unreadable temp folder is not this command's problem
  }
  const me = { pid: process.pid, uid: process.getuid?.(), now: Date.now() };
  for (const name of names) {
    if (!LEGACY.test(name)) continue;
    try {
      if (!leftoverVerdict(name, await lstat(join(dir, name)), me, processAlive)) continue;
      await rm(join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // already gone, or not ours to remove
    }
  }
  return removed;
}
