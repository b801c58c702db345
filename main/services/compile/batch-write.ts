import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

const FSYNC_CONCURRENCY = 32;

async function fsyncPath(path: string, flags: string): Promise<void> {
  const fh = await open(path, flags);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function pool<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(FSYNC_CONCURRENCY, items.length) }, worker));
}

/**
 * Atomic replacement of many files at once, with the guarantee of fs/atomic.ts for each
 * (temp file in the same folder, flushed, renamed over the target: a reader — or an
 * interrupted compile — sees the old content or the new, never a torn file), but with the
 * flushes issued in parallel: a compile writes thousands of files, and one synchronous
 * fsync after another would dominate its run time. `durable: false` skips the flushes
 * (renames stay atomic against an interrupted process, not against a power cut) — for
 * scratch copies such as the differential test's thousand throw-away projects.
 */
export async function writeFilesAtomic(files: readonly { abs: string; data: string | Uint8Array }[], durable = true): Promise<void> {
  const staged: { tmp: string; abs: string }[] = [];
  const made = new Set<string>();
  const tag = `${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    for (const f of files) {
      const dir = dirname(f.abs);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      const tmp = join(dir, `.${basename(f.abs)}.${tag}.tmp`);
      const fd = openSync(tmp, 'wx', 0o644);
      staged.push({ tmp, abs: f.abs });
      try {
        writeSync(fd, typeof f.data === 'string' ? Buffer.from(f.data, 'utf8') : f.data);
      } finally {
        closeSync(fd);
      }
    }
    if (durable) await pool(staged, (s) => fsyncPath(s.tmp, 'r+'));
    while (staged.length) {
      const s = staged[0]!;
      renameSync(s.tmp, s.abs);
      staged.shift();
    }
  } finally {
    for (const s of staged) rmSync(s.tmp, { force: true });
  }
  // Make the renames themselves durable (best effort: not every platform can open a folder).
  if (!durable) return;
  const dirs = [...new Set(files.map((f) => dirname(f.abs)))];
  await pool(dirs, (d) => fsyncPath(d, 'r').catch(() => undefined));
}
