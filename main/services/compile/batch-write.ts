import { closeSync, fchmodSync, fsync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** Temp files held open at once (each is flushed while open, then closed). */
const CHUNK = 128;

const flush = (fd: number): Promise<void> => new Promise((resolve, reject) => fsync(fd, (e) => (e ? reject(e) : resolve())));

/**
 * Atomic replacement of many files at once, with the guarantee of fs/atomic.ts for each
 * (temp file in the same folder, flushed, renamed over the target: a reader — or an
 * interrupted compile — sees the old content or the new, never a torn file), but with the
 * flushes issued in parallel: a compile writes thousands of files, and one synchronous
 * fsync after another would dominate its run time. Every target is renamed only after all
 * temp files are written and flushed. `durable: false` skips the flushes (renames stay
 * atomic against an interrupted process, not against a power cut) — for scratch copies
 * such as the differential test's thousand throw-away projects. `executable` files get mode
 * 0755, the others 0644.
 */
export async function writeFilesAtomic(files: readonly { abs: string; data: string | Uint8Array; executable?: boolean }[], durable = true): Promise<void> {
  const staged: { tmp: string; abs: string }[] = [];
  const made = new Set<string>();
  const tag = `${process.pid}.${randomBytes(4).toString('hex')}`;
  let renamed = 0;
  try {
    for (let start = 0; start < files.length; start += CHUNK) {
      const open: number[] = [];
      try {
        for (const f of files.slice(start, start + CHUNK)) {
          const dir = dirname(f.abs);
          if (!made.has(dir)) {
            mkdirSync(dir, { recursive: true });
            made.add(dir);
          }
          const tmp = join(dir, `.${basename(f.abs)}.${tag}.tmp`);
          const mode = f.executable ? 0o755 : 0o644;
          const fd = openSync(tmp, 'wx', mode);
          open.push(fd);
          // The umask may have cleared bits: a delivered script keeps exactly its execute bits.
          if (f.executable) fchmodSync(fd, mode);
          staged.push({ tmp, abs: f.abs });
          writeSync(fd, typeof f.data === 'string' ? Buffer.from(f.data, 'utf8') : f.data);
        }
        if (durable) await Promise.all(open.map(flush));
      } finally {
        for (const fd of open) closeSync(fd);
      }
    }
    for (; renamed < staged.length; renamed++) renameSync(staged[renamed]!.tmp, staged[renamed]!.abs);
  } finally {
    for (const s of staged.slice(renamed)) rmSync(s.tmp, { force: true });
  }
}
