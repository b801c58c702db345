import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const PROJECT_LOCK = join('.kitbash', '.skillsmith.lock');

interface Holder {
  pid: number;
  host: string;
  since: string;
  command: string;
}

export interface ProjectLockOptions {
  /** How long to wait for a live holder; SKILLSMITH_LOCK_TIMEOUT_MS overrides (default 10 s). */
  readonly timeoutMs?: number;
  /** What this process is doing, for the other side's message. */
  readonly command: string;
}

/** Another live process holds the project lock. */
export class ProjectBusyError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Holder;
    return typeof h.pid === 'number' ? h : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Serialise changes to one project: `.kitbash/.skillsmith.lock` is created exclusively
 * and holds the owner's pid. A lock whose owner is dead (same host) is taken over; a
 * live one is waited for, then refused with a message naming the holder.
 */
export function acquireProjectLock(root: string, opts: ProjectLockOptions): () => void {
  const path = join(root, PROJECT_LOCK);
  const kitbashDir = join(root, '.kitbash');
  const created = !existsSync(kitbashDir);
  mkdirSync(kitbashDir, { recursive: true });
  const envTimeout = Number(process.env.SKILLSMITH_LOCK_TIMEOUT_MS);
  const timeout = Number.isFinite(envTimeout) && process.env.SKILLSMITH_LOCK_TIMEOUT_MS !== undefined ? envTimeout : (opts.timeoutMs ?? 10_000);
  const deadline = Date.now() + timeout;
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: opts.command };
  for (;;) {
    try {
      // Created whole: the holder is written to a private file that is then hard-linked into
      // place (EEXIST when held). Opening the lock file and then writing it let another
      // process read it empty in between, take it for a dead holder's and steal it.
      const mine = `${path}.${process.pid}.${Date.now().toString(36)}`;
      const fd = openSync(mine, 'wx', 0o644);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      try {
        linkSync(mine, path);
      } finally {
        rmSync(mine, { force: true });
      }
      return () => {
        const h = readHolder(path);
        if (h && h.pid === process.pid) rmSync(path, { force: true });
        // A failed first command leaves no empty .kitbash/ behind.
        if (created) {
          try {
            rmdirSync(kitbashDir);
          } catch {
            // not empty: something was installed
          }
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = readHolder(path);
    if (holder === undefined || (holder.host === me.host && !alive(holder.pid))) {
      // Stale (dead holder, or a torn file from a crash while writing it): take it over
      // by renaming it aside, so two racing processes cannot both delete and create.
      const aside = `${path}.stale.${process.pid}`;
      try {
        renameSync(path, aside);
        rmSync(aside, { force: true });
      } catch {
        // someone else took it over first; loop and look again
      }
      continue;
    }
    if (Date.now() >= deadline) {
      throw new ProjectBusyError(
        `another skillsmith process (pid ${holder.pid}${holder.host !== me.host ? ` on ${holder.host}` : ''}, running "${holder.command}" since ${holder.since}) is changing this project — wait for it to finish, or delete ${PROJECT_LOCK} if that process is gone`,
      );
    }
    sleep(50);
  }
}

/** Run `fn` while holding the project lock. */
export async function withProjectLock<T>(root: string, command: string, fn: () => T | Promise<T>): Promise<T> {
  const release = acquireProjectLock(root, { command });
  try {
    return await fn();
  } finally {
    release();
  }
}
