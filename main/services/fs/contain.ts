import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Resolve `target` against `root` and return the absolute path only if it stays inside
 * `root` — lexically and after resolving symlinks of the deepest existing ancestor.
 */
export function resolveInside(root: string, target: string): string | undefined {
  const absRoot = resolve(root);
  const abs = resolve(absRoot, target);
  if (!isWithin(absRoot, abs)) return undefined;
  let probe = abs;
  while (!existsSync(probe)) {
    const up = dirname(probe);
    if (up === probe) break;
    probe = up;
  }
  const realRoot = realpathSync(absRoot);
  return isWithin(realRoot, realpathSync(probe)) ? abs : undefined;
}

function isWithin(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
