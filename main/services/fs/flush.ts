import type { spawn as Spawn } from 'node:child_process';
import { existsSync, fsync } from 'node:fs';
import { createRequire } from 'node:module';

/*
 * Getting many new files onto the disk at once. fsync(2) of each file costs a journal commit
 * per call, and a compile writes thousands; syncfs(2) flushes a whole file system in one
 * call. Node has no syncfs, but coreutils `sync -f FILE` is exactly syncfs(open(FILE)): it is
 * handed the descriptors of folders we hold open (as its fds 3, 4, …, named /dev/fd/N), so it
 * flushes the file systems those very folders are on, whatever their paths lead to now.
 */

let syncBinary: string | null | undefined;

/** coreutils `sync` on Linux, where /dev/fd names a process's own descriptors; null elsewhere. */
function syncCommand(): string | null {
  if (syncBinary === undefined)
    syncBinary =
      process.platform === 'linux' && existsSync('/dev/fd')
        ? (['/usr/bin/sync', '/bin/sync'].find((p) => existsSync(p)) ?? null)
        : null;
  return syncBinary;
}

/** Whether flushFileSystems can work here (so a writer may skip its per-file fsyncs). */
export function canFlushFileSystems(): boolean {
  return syncCommand() !== null;
}

/**
 * syncfs(2) of the file system each descriptor is on (one descriptor per file system is
 * enough). Resolves false when that could not be done — no `sync`, one too old for `-f`, or
 * any failure it reports — and the caller must then fsync what it wrote: a write-back error
 * is reported to every descriptor's own fsync as well, so falling back hides nothing.
 */
export function flushFileSystems(fds: readonly number[]): Promise<boolean> {
  const bin = syncCommand();
  if (bin === null || fds.length === 0) return Promise.resolve(bin !== null);
  return new Promise((resolve) => {
    let child;
    try {
      child = loadSpawn()(bin, ['-f', ...fds.map((_, i) => `/dev/fd/${i + 3}`)], {
        stdio: ['ignore', 'ignore', 'ignore', ...fds],
      });
    } catch {
      return resolve(false);
    }
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/**
 * child_process on first use: this module sits under every folder opened inside the project
 * (fs/inside), so a compile answered from its record would load it, and only a writer flushes.
 */
function loadSpawn(): typeof Spawn {
  return (createRequire(__filename)('node:child_process') as { spawn: typeof Spawn }).spawn;
}

/** fsync(2) each descriptor, all at once (the thread pool runs them side by side). */
export function fsyncAll(fds: readonly number[]): Promise<void> {
  return Promise.all(fds.map((fd) => new Promise<void>((res, rej) => fsync(fd, (e) => (e ? rej(e) : res()))))).then(
    () => undefined,
  );
}
