import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve } from 'node:path';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

function within(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Map a URL path (already split from its query) to a file under `root`, or the status to
 * refuse it with. `..` segments, backslashes, NUL and bad escapes are refused before any
 * filesystem access; used by the loopback host and the Electron `app://` protocol alike.
 */
export function mapUrlPath(
  root: string,
  urlPath: string,
): { ok: true; file: string } | { ok: false; status: 400 | 403 } {
  if (!urlPath.startsWith('/')) return { ok: false, status: 400 };
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { ok: false, status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 403 };
  if (decoded.split('/').some((s) => s === '..')) return { ok: false, status: 403 };
  const file = resolve(root, '.' + (decoded === '/' ? '/index.html' : decoded));
  if (!within(root, file)) return { ok: false, status: 403 };
  return { ok: true, file };
}

/** Follow symlinks and check again: a link inside the root must not lead out of it. */
export async function existingFileInside(
  root: string,
  file: string,
): Promise<{ ok: true; file: string; size: number } | { ok: false; status: 403 | 404 }> {
  try {
    const realRoot = await realpath(root);
    const real = await realpath(file);
    if (!within(realRoot, real)) return { ok: false, status: 403 };
    const info = await stat(real);
    if (!info.isFile()) return { ok: false, status: 404 };
    return { ok: true, file: real, size: info.size };
  } catch {
    return { ok: false, status: 404 };
  }
}
