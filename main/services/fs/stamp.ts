import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, statfsSync, statSync, type BigIntStats, type Dirent, type Stats } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { lstatNs, readdirEntries } from '../skills/fs-async';
import { join, sep } from 'node:path';

/**
 * Whether a path has changed since it was looked at, from what the file system says about
 * it without reading it. Two forms of one rule: stamps (the skill caches, the disk view)
 * and signatures (the compile record).
 *
 * Stamps: what the file system says about a path without reading it — kind, size, mode,
 * inode and both timestamps to the nanosecond. Any write to a file, and any entry added
 * to or removed from a folder, changes its ctime (which no user-space tool can set back),
 * so an unchanged stamp means unchanged bytes — except for a write that lands within the
 * file system's timestamp tick of when the stamp was taken. Such a stamp is "racy" and is
 * never trusted: what was read from the path must be read again. (The same rule as git's
 * index: its "racily clean" entries.)
 */

/** How close to "now" a timestamp must be to count as racy: wider than any file system's tick (FAT: 2 s). */
export const RACY_NS = 2_500_000_000n;
/**
 * The window on Linux file systems that keep nanosecond timestamps, set from the kernel's
 * coarse clock: a tick is at most 10 ms (HZ=100), and the margin covers the gap between
 * that clock and Date.now().
 */
const FINE_RACY_NS = 50_000_000n;
/** statfs magic numbers of those: ext2/3/4, XFS, Btrfs, tmpfs, F2FS, overlayfs (its upper layer's times). */
const FINE_GRAINED = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0xf2f52010, 0x794c7630]);
const windows = new Map<string, Promise<bigint>>();

/** The window for a file system of this statfs type (undefined: not known). */
function windowOf(type: number | bigint | undefined): bigint {
  return process.platform === 'linux' && type !== undefined && FINE_GRAINED.has(Number(type)) ? FINE_RACY_NS : RACY_NS;
}

/** The racy window for stamps taken under `root`: small on a known local Linux file system, RACY_NS elsewhere. */
export function racyWindow(root: string): Promise<bigint> {
  let w = windows.get(root);
  if (!w) {
    w =
      process.platform === 'linux'
        ? statfs(root).then(
            (s) => windowOf(s.type),
            () => RACY_NS,
          )
        : Promise.resolve(RACY_NS);
    windows.set(root, w);
  }
  return w;
}

/**
 * racyWindow in milliseconds and without a promise, for the synchronous lint (D132), by the
 * same rule. Asked once per device: every folder on one file system shares its tick.
 */
export function racyWindowMsSync(path: string, dev: number): number {
  let w = syncWindows.get(dev);
  if (w === undefined) {
    try {
      w = windowOf(process.platform === 'linux' ? statfsSync(path).type : undefined);
    } catch {
      w = RACY_NS; // Unknown file system: the wide window.
    }
    syncWindows.set(dev, w);
  }
  return Number(w) / 1e6;
}
const syncWindows = new Map<number, bigint>();

export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** One path's stamp as a string, or 'absent'. */
export function stampOf(st: BigIntStats | undefined): string {
  if (!st) return 'absent';
  const kind = st.isFile() ? 'f' : st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'o';
  return `${kind}:${st.size}:${st.mode}:${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** The newest of a stamp's two timestamps (0 for an absent path). */
export function newestOf(st: BigIntStats | undefined): bigint {
  if (!st) return 0n;
  return st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs;
}

export const lstatOrUndefined = lstatNs;

/** The stamp of a whole folder: every entry below it, as readSkillTree walks it (top-level `.git` left out). */
export interface FolderStamp {
  /** sha256 over every entry's path and stamp, in walk order. */
  readonly digest: string;
  /** The newest timestamp of any entry, the folder itself included. */
  readonly newest: bigint;
}

const MAX_DEPTH = 33;

/** Stamp a folder with promises; undefined when it cannot be walked (it is then read, never trusted). */
export async function folderStamp(abs: string): Promise<FolderStamp | undefined> {
  const h = createHash('sha256');
  const top = await lstatOrUndefined(abs);
  if (!top?.isDirectory()) return undefined;
  let newest = newestOf(top);
  h.update(`.\0${stampOf(top)}\n`);
  const walk = async (dir: string, rel: string, depth: number): Promise<boolean> => {
    if (depth > MAX_DEPTH) return false;
    let names: Dirent[];
    try {
      names = await readdirEntries(dir);
    } catch {
      return false;
    }
    const sorted = names
      .filter((d) => !(depth === 0 && d.name === '.git'))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const stats = await Promise.all(sorted.map((d) => lstatOrUndefined(join(dir, d.name))));
    for (let i = 0; i < sorted.length; i++) {
      const st = stats[i];
      if (!st) return false;
      const r = rel ? `${rel}/${sorted[i]!.name}` : sorted[i]!.name;
      h.update(`${r}\0${stampOf(st)}\n`);
      const n = newestOf(st);
      if (n > newest) newest = n;
      if (st.isDirectory() && !(await walk(join(dir, sorted[i]!.name), r, depth + 1))) return false;
    }
    return true;
  };
  if (!(await walk(abs, '', 0))) return undefined;
  return { digest: h.digest('hex'), newest };
}

/**
 * A folder stamp for the synchronous lint (D132), kept with the paths it covers so that it
 * can be taken again without listing a folder: a folder's ctime moves whenever an entry is
 * added to, removed from or renamed in it, so while every folder on the list keeps its
 * stamp, the list is still complete. Times are read as milliseconds (a double keeps them to
 * a fraction of a microsecond, far finer than any racy window), which is cheaper than
 * BigInt stats by the thousand.
 */
export interface ListedStamp {
  /** sha256 over the folder's own stamp and every listed entry's path and stamp, in walk order. */
  readonly digest: string;
  /** Every entry below the folder, as readSkillTree walks it (top-level `.git` left out). */
  readonly paths: readonly string[];
  /** The newest timestamp of any entry, the folder itself included, in ms. */
  readonly newestMs: number;
  readonly dev: number;
}

function stampOfMs(st: Stats): string {
  const kind = st.isFile() ? 'f' : st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'o';
  return `${kind}:${st.size}:${st.mode}:${st.dev}:${st.ino}:${st.mtimeMs}:${st.ctimeMs}`;
}

/**
 * Walk and stamp a folder, listing it (taken before its bytes are read); undefined when it
 * cannot be walked or holds more than `maxEntries` entries (the reader refuses such a
 * folder anyway, so there is nothing to record).
 */
export function listedStampSync(abs: string, maxEntries = Number.POSITIVE_INFINITY): ListedStamp | undefined {
  const top = look(abs, false);
  if (!top?.isDirectory()) return undefined;
  const h = createHash('sha256').update(`.\0${stampOfMs(top)}\n`);
  const paths: string[] = [];
  let newestMs = Math.max(top.mtimeMs, top.ctimeMs);
  const walk = (dir: string, rel: string, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return false;
    }
    names.sort();
    for (const name of names) {
      if (depth === 0 && name === '.git') continue;
      // A name from readdir is one clean segment: no join() (and its normalising) needed.
      const st = look(`${dir}${sep}${name}`, false);
      if (!st) return false;
      const r = rel ? `${rel}/${name}` : name;
      if (paths.push(r) > maxEntries) return false;
      h.update(`${r}\0${stampOfMs(st)}\n`);
      newestMs = Math.max(newestMs, st.mtimeMs, st.ctimeMs);
      if (st.isDirectory() && !walk(`${dir}${sep}${name}`, r, depth + 1)) return false;
    }
    return true;
  };
  if (!walk(abs, '', 0)) return undefined;
  return { digest: h.digest('hex'), paths, newestMs, dev: top.dev };
}

/**
 * The digest listedStampSync would give now, if the folder still holds exactly `paths`:
 * one lstat per entry and no listing. A path gone or any stamp changed gives another digest
 * (or undefined), never the recorded one.
 */
export function restampSync(abs: string, paths: readonly string[]): string | undefined {
  const top = look(abs, false);
  if (!top?.isDirectory()) return undefined;
  const h = createHash('sha256').update(`.\0${stampOfMs(top)}\n`);
  const prefix = `${abs}${sep}`;
  for (const r of paths) {
    const st = look(prefix + (sep === '/' ? r : r.split('/').join(sep)), false);
    if (!st) return undefined;
    h.update(`${r}\0${stampOfMs(st)}\n`);
  }
  return h.digest('hex');
}

/** Whether a stamp taken at `takenAt` (ns) may be trusted later: nothing in it changed within `window` of then. */
export function settled(newest: bigint, takenAt: bigint, window: bigint = RACY_NS): boolean {
  return newest < takenAt - window;
}

/** A path's stats through a final symlink (`follow`) or of the link itself; undefined when there is none. */
export function look(abs: string, follow: boolean): Stats | undefined {
  try {
    return (follow ? statSync : lstatSync)(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/*
 * Signatures: a stamp cut to what the compile record needs (inode, mode, size, ctime, on a
 * device the record names once), kept as numbers in its JSON. The same rule as stamps: ctime
 * moves on every change to a file (content, mode, times, a rename over it) and cannot be set
 * by hand, and a signature is trusted only once its ctime is older than a clock reading
 * taken before the content was read (compile/record.ts takes it from a probe file).
 */
export type Sig = [ino: number, mode: number, size: number, ctime: number];

export const sigOf = (st: Stats | undefined): Sig | null => (st ? [st.ino, st.mode, st.size, st.ctimeMs] : null);

export function sameSig(st: Stats | undefined, sig: Sig | null | undefined): boolean {
  if (!st || !sig) return !st && !sig;
  return st.ctimeMs === sig[3] && st.ino === sig[0] && st.size === sig[2] && st.mode === sig[1];
}

/** The signature kept for presence alone. */
export const PRESENT: Sig = [0, 0, 0, 0];
