import { createHash } from 'node:crypto';
import type { BigIntStats, Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Stamps: what the file system says about a path without reading it — kind, size, mode,
 * inode and both timestamps to the nanosecond. Any write to a file, and any entry added
 * to or removed from a folder, changes its ctime (which no user-space tool can set back),
 * so an unchanged stamp means unchanged bytes — except for a write that lands within the
 * file system's timestamp tick of when the stamp was taken. Such a stamp is "racy" and is
 * never trusted: what was read from the path must be read again.
 */

/** How close to "now" a timestamp must be to count as racy: wider than any file system's tick (FAT: 2 s). */
export const RACY_NS = 2_500_000_000n;

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

export async function lstatOrUndefined(p: string): Promise<BigIntStats | undefined> {
  try {
    return await lstat(p, { bigint: true });
  } catch {
    return undefined;
  }
}

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
      names = await readdir(dir, { withFileTypes: true });
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

/** Whether a stamp taken at `takenAt` (ns) may be trusted later: nothing in it changed within a tick of then. */
export function settled(newest: bigint, takenAt: bigint): boolean {
  return newest < takenAt - RACY_NS;
}
