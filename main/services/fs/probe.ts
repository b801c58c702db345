import { lstatSync, statSync, type Stats } from 'node:fs';

/*
 * Path predicates that answer false for anything missing or unreadable and never throw:
 * the one place for "is there a folder here?", so callers do not each wrap a stat call.
 */

function safely(test: () => boolean): boolean {
  try {
    return test();
  } catch {
    return false;
  }
}

/** lstat of `p`; undefined when nothing is there or it cannot be looked at (no exception: misses are common). */
export function lstatIfPresent(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** A folder at `p`, through a symlink if `p` is one. */
export const isDirectory = (p: string): boolean =>
  safely(() => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true);

/** A folder at `p` itself (a symlink to one is not). */
export const isRealDir = (p: string): boolean => lstatIfPresent(p)?.isDirectory() === true;

/** A regular file at `p` itself (a symlink to one is not). */
export const isRealFile = (p: string): boolean => lstatIfPresent(p)?.isFile() === true;

export const isSymlink = (p: string): boolean => lstatIfPresent(p)?.isSymbolicLink() === true;

/** Anything at `p`, a dangling symlink included (existsSync follows links). */
export const isPresent = (p: string): boolean => lstatIfPresent(p) !== undefined;
