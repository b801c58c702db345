import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ProjectView } from '../../../shared/targets/types';
import { resolveInside } from '../fs/contain';

const MAX_READ = 4 * 1024 * 1024;

/** The targets layer's read-only project view, backed by the disk and contained in `root`. */
export function diskProjectView(root: string): ProjectView {
  const inside = (p: string) => resolveInside(root, p);
  return {
    rootName: basename(root),
    exists: (p) => {
      const abs = inside(p);
      return abs !== undefined && existsSync(abs);
    },
    read: (p) => {
      const abs = inside(p);
      if (!abs) return undefined;
      try {
        const st = statSync(abs);
        if (!st.isFile() || st.size > MAX_READ) return undefined;
        return readFileSync(abs, 'utf8');
      } catch {
        return undefined;
      }
    },
    list: (dir) => {
      const abs = inside(dir);
      if (!abs) return [];
      try {
        return readdirSync(abs, { withFileTypes: true }).map((d) => ({ name: d.name, kind: d.isFile() ? ('file' as const) : d.isDirectory() ? ('dir' as const) : ('other' as const) }));
      } catch {
        return [];
      }
    },
  };
}

