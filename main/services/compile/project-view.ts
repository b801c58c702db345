import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ProjectView } from '../../../shared/targets/types';

/** Largest file the compiler reads from the project (generated outputs, shared files). */
const MAX_READ_BYTES = 16 * 1024 * 1024;

/**
 * The project on disk as the pure planner's read-only view. Paths are relative and
 * '/'-separated; reads are cached for one planning pass.
 */
export function diskProject(root: string): ProjectView {
  const abs = resolve(root);
  const bytesCache = new Map<string, Uint8Array | undefined>();
  const readBytes = (rel: string): Uint8Array | undefined => {
    if (bytesCache.has(rel)) return bytesCache.get(rel);
    let v: Uint8Array | undefined;
    try {
      const p = join(abs, ...rel.split('/'));
      const st = lstatSync(p);
      // Never read through a link: generated outputs are regular files.
      v = st.isFile() && st.size <= MAX_READ_BYTES ? readFileSync(p) : undefined;
    } catch {
      v = undefined;
    }
    bytesCache.set(rel, v);
    return v;
  };
  return {
    rootName: basename(abs),
    exists: (rel) => existsSync(join(abs, ...rel.split('/'))),
    read: (rel) => {
      const b = readBytes(rel);
      return b === undefined ? undefined : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
    },
    readBytes,
    list: (dir) => {
      try {
        return readdirSync(join(abs, ...dir.split('/')), { withFileTypes: true }).map((d) => ({
          name: d.name,
          kind: d.isFile() ? ('file' as const) : d.isDirectory() ? ('dir' as const) : ('other' as const),
        }));
      } catch {
        return [];
      }
    },
  };
}
