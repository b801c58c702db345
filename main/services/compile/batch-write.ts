import { closeSync, constants, fchmodSync, fsync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { openProjectDir, type ProjectDir } from '../fs/inside';

/** Temp files held open at once (each is flushed while open, then closed). */
const CHUNK = 128;

const flush = (fd: number): Promise<void> =>
  new Promise((resolve, reject) => fsync(fd, (e) => (e ? reject(e) : resolve())));

interface Item {
  readonly dir: string;
  readonly name: string;
  readonly data: string | Uint8Array;
  readonly executable?: boolean;
}

/** Run `fn` on each folder's items with that folder opened inside the project (one folder open at a time). */
async function byFolder<T extends { readonly dir: string }>(
  root: string,
  items: readonly T[],
  fn: (dir: ProjectDir, items: T[]) => void | Promise<void>,
): Promise<void> {
  const groups = new Map<string, T[]>();
  for (const i of items) {
    const g = groups.get(i.dir);
    if (g) g.push(i);
    else groups.set(i.dir, [i]);
  }
  for (const [rel, group] of groups) {
    const dir = openProjectDir(root, rel, { create: true });
    try {
      await fn(dir, group);
    } finally {
      dir.close();
    }
  }
}

/**
 * Atomic replacement of many project files at once, with the guarantee of
 * fs/inside.ts's writeFileInside for each (temp file in the same folder, flushed, renamed
 * over the target: a reader — or an interrupted compile — sees the old content or the
 * new, never a torn file; each folder opened inside the project, so a folder swapped for a
 * symlink cannot redirect a write), but with the flushes issued in parallel: a compile
 * writes thousands of files, and one synchronous fsync after another would dominate its
 * run time. Every target is renamed only after all temp files are written and flushed,
 * each folder opened and checked again for its renames. `durable: false` skips the
 * flushes (renames stay atomic against an interrupted process, not against a power cut)
 * — for scratch copies such as the differential test's thousand throw-away projects.
 * `executable` files get mode 0755, the others 0644.
 */
export async function writeFilesInside(
  root: string,
  files: readonly { rel: string; data: string | Uint8Array; executable?: boolean }[],
  durable = true,
): Promise<void> {
  const tag = `${process.pid}.${randomBytes(4).toString('hex')}`;
  const items: Item[] = files.map((f) => {
    const parts = f.rel.split('/');
    return { name: parts.pop()!, dir: parts.join('/'), data: f.data, ...(f.executable ? { executable: true } : {}) };
  });
  const tmpOf = (name: string) => `.${name}.${tag}.tmp`;
  const staged: Item[] = [];
  let done = false;
  try {
    for (let start = 0; start < items.length; start += CHUNK) {
      const open: number[] = [];
      try {
        await byFolder(root, items.slice(start, start + CHUNK), (dir, group) => {
          for (const f of group) {
            const mode = f.executable ? 0o755 : 0o644;
            const fd = openSync(
              dir.at(tmpOf(f.name)),
              constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
              mode,
            );
            open.push(fd);
            // The umask may have cleared bits: a delivered script keeps exactly its execute bits.
            if (f.executable) fchmodSync(fd, mode);
            staged.push(f);
            writeSync(fd, typeof f.data === 'string' ? Buffer.from(f.data, 'utf8') : f.data);
          }
        });
        if (durable) await Promise.all(open.map(flush));
      } finally {
        for (const fd of open) closeSync(fd);
      }
    }
    await byFolder(root, staged, (dir, group) => {
      for (const f of group) renameSync(dir.at(tmpOf(f.name)), dir.at(f.name));
      dir.verify();
    });
    done = true;
  } finally {
    if (!done) {
      // Temp files not renamed are removed, through their folder opened inside the project again.
      await byFolder(root, staged, (dir, group) => {
        for (const f of group) {
          try {
            unlinkSync(dir.at(tmpOf(f.name)));
          } catch {
            // renamed already, or gone
          }
        }
      }).catch(() => undefined);
    }
  }
}
