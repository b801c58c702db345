import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Find `rel` in the nearest of `from` and its ancestors (at most `levels` up). The bundle
 * puts code in out/main/ or out/main/chunks/, so fixed `..` counts would break.
 */
export function findUp(rel: string, from: string = __dirname, levels = 5): string | undefined {
  let dir = from;
  for (let i = 0; i <= levels; i++) {
    const candidate = join(dir, rel);
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** The built renderer folder (out/renderer), or undefined when the app is not built. */
export function builtRendererDir(from: string = __dirname): string | undefined {
  const index = findUp(join('renderer', 'index.html'), from, 3);
  return index ? dirname(index) : undefined;
}
