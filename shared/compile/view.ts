import type { ProjectFiles } from '../targets/types';

/**
 * A project view over in-memory files (path → text or bytes; a path ending in '/' is an
 * empty folder) — for planning live in the renderer, or in tests, without a disk.
 */
export function memoryView(files: Readonly<Record<string, string | Uint8Array>>, rootName = 'project'): ProjectFiles {
  const keys = Object.keys(files);
  const isFile = (p: string): boolean => p in files && !p.endsWith('/');
  return {
    rootName,
    exists: (p) => isFile(p) || keys.some((k) => k.startsWith(`${p}/`)),
    read: (p) => {
      if (!isFile(p)) return undefined;
      const v = files[p]!;
      return typeof v === 'string' ? v : new TextDecoder().decode(v);
    },
    readBytes: (p) => {
      if (!isFile(p)) return undefined;
      const v = files[p]!;
      if (typeof v !== 'string') return v;
      const out: number[] = [];
      for (const ch of v) {
        const c = ch.codePointAt(0)!;
        if (c < 0x80) out.push(c);
        else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
      return Uint8Array.from(out);
    },
    list: (dir) => {
      const seen = new Map<string, 'file' | 'dir'>();
      for (const k of keys) {
        if (!k.startsWith(`${dir}/`)) continue;
        const rest = k.slice(dir.length + 1);
        if (rest === '') continue;
        const i = rest.indexOf('/');
        seen.set(i === -1 ? rest : rest.slice(0, i), i === -1 ? 'file' : 'dir');
      }
      return [...seen].map(([name, kind]) => ({ name, kind }));
    },
  };
}
