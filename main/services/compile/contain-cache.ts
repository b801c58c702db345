import { realpathSync } from 'node:fs';
import { lstatIfPresent } from '../fs/probe';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

function isWithin(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Containment for many paths under one root, with symlinks resolved: the rule of
 * fs/contain.ts (lexically inside, and the deepest existing ancestor's real path inside the
 * real root; a path that is itself a link is resolved too), with each folder's real path
 * looked up once rather than once per file.
 */
export function containment(root: string): (rel: string) => string | undefined {
  const absRoot = resolve(root);
  const realRoot = realpathSync(absRoot);
  const dirVerdict = new Map<string, boolean>();
  const dirInside = (dir: string): boolean => {
    const known = dirVerdict.get(dir);
    if (known !== undefined) return known;
    let verdict: boolean;
    const st = lstatIfPresent(dir);
    if (st === undefined) {
      const up = dirname(dir);
      verdict = up === dir ? false : dirInside(up);
    } else {
      try {
        verdict = isWithin(realRoot, realpathSync(dir));
      } catch {
        verdict = false;
      }
    }
    dirVerdict.set(dir, verdict);
    return verdict;
  };
  return (rel) => {
    const abs = resolve(absRoot, rel);
    if (!isWithin(absRoot, abs) || abs === absRoot) return undefined;
    const st = lstatIfPresent(abs);
    if (st?.isSymbolicLink()) {
      try {
        if (!isWithin(realRoot, realpathSync(abs))) return undefined;
      } catch {
        return undefined;
      }
    }
    return dirInside(dirname(abs)) ? abs : undefined;
  };
}
