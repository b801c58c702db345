import { existsSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ProjectFiles } from '../../../shared/targets/types';
import { lstatIfPresent } from '../fs/probe';

/** Largest file the compiler reads from the project (generated outputs, shared files). */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/**
 * The project on disk as the pure planner's read-only view. Paths are relative and
 * '/'-separated. It is a snapshot: every answer is cached, so make a new view after the
 * files change (the desktop keeps one per watcher generation). `observe` hears the lstat
 * each answer was read after (a folder's, before its entries are listed): the compile
 * record keeps them as the signatures of what the plan read.
 */
export function diskProject(root: string, observe?: (rel: string, st: Stats | undefined) => void): ProjectFiles {
  const abs = resolve(root);
  const bytesCache = new Map<string, Uint8Array | undefined>();
  const readBytes = (rel: string): Uint8Array | undefined => {
    if (bytesCache.has(rel)) return bytesCache.get(rel);
    let v: Uint8Array | undefined;
    const p = join(abs, ...rel.split('/'));
    const st = lstatIfPresent(p);
    observe?.(rel, st);
    try {
      // Never read through a link: generated outputs are regular files.
      v = st?.isFile() && st.size <= MAX_READ_BYTES ? readFileSync(p) : undefined;
    } catch {
      v = undefined;
    }
    bytesCache.set(rel, v);
    return v;
  };
  const execCache = new Map<string, boolean>();
  const textCache = new Map<string, string | undefined>();
  const existsCache = new Map<string, boolean>();
  const listCache = new Map<string, { name: string; kind: 'file' | 'dir' | 'other' }[]>();
  return {
    rootName: basename(abs),
    // Every answer is cached, so it never changes; with an observer, reads are being recorded.
    snapshot: observe === undefined,
    exists: (rel) => {
      let v = existsCache.get(rel);
      if (v === undefined) existsCache.set(rel, (v = existsSync(join(abs, ...rel.split('/')))));
      return v;
    },
    read: (rel) => {
      if (textCache.has(rel)) return textCache.get(rel);
      const b = readBytes(rel);
      const text = b === undefined ? undefined : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
      textCache.set(rel, text);
      return text;
    },
    readBytes,
    isExecutable: (rel) => {
      let v = execCache.get(rel);
      if (v === undefined) {
        const st = lstatIfPresent(join(abs, ...rel.split('/')));
        observe?.(rel, st);
        v = ((st?.mode ?? 0) & 0o111) !== 0;
        execCache.set(rel, v);
      }
      return v;
    },
    list: (dir) => {
      const hit = listCache.get(dir);
      if (hit) return hit;
      let entries: { name: string; kind: 'file' | 'dir' | 'other' }[];
      if (observe) observe(dir, lstatIfPresent(join(abs, ...dir.split('/'))));
      try {
        entries = readdirSync(join(abs, ...dir.split('/')), { withFileTypes: true }).map((d) => ({
          name: d.name,
          kind: d.isFile() ? ('file' as const) : d.isDirectory() ? ('dir' as const) : ('other' as const),
        }));
      } catch {
        entries = [];
      }
      listCache.set(dir, entries);
      return entries;
    },
  };
}
