import { lstatSync, statSync } from 'node:fs';

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

/** A folder at `p`, through a symlink if `p` is one. */
export const isDirectory = (p: string): boolean => safely(() => statSync(p).isDirectory());

/** A folder at `p` itself (a symlink to one is not). */
export const isRealDir = (p: string): boolean => safely(() => lstatSync(p).isDirectory());

/** A regular file at `p` itself (a symlink to one is not). */
export const isRealFile = (p: string): boolean => safely(() => lstatSync(p).isFile());

export const isSymlink = (p: string): boolean => safely(() => lstatSync(p).isSymbolicLink());

/** Anything at `p`, a dangling symlink included (existsSync follows links). */
export const isPresent = (p: string): boolean => safely(() => (lstatSync(p), true));
