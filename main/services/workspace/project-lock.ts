import { existsSync, linkSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { openProjectDir, withProjectDir, writeNewFile } from '../fs/inside';
import { CodedError } from '../../../shared/result';

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

/** Whether a process of this pid exists (EPERM: it does, owned by another user). */
export function processAlive(pid: number): boolean {
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

/** One try at the lock: the release function, or how long to wait before the next try. */
type Attempt = { release: () => void } | { waitMs: number };

/**
 * The lock protocol, one try at a time, for the two ways of waiting (acquireProjectLock,
 * acquireProjectLockAsync). Each try is a handful of tiny file operations.
 */
function locker(root: string, opts: ProjectLockOptions): { attempt(): Attempt; abandon(): void } {
  const created = !existsSync(join(root, '.kitbash'));
  // Held until release: the lock file is made and removed in this folder, wherever its path leads by then.
  const kitbash = openProjectDir(root, '.kitbash', { create: true });
  const name = basename(PROJECT_LOCK);
  const envTimeout = Number(process.env.SKILLSMITH_LOCK_TIMEOUT_MS);
  const timeout =
    Number.isFinite(envTimeout) && process.env.SKILLSMITH_LOCK_TIMEOUT_MS !== undefined
      ? envTimeout
      : (opts.timeoutMs ?? 10_000);
  const deadline = Date.now() + timeout;
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: opts.command };
  // The holder is written whole to a file of our own, then linked into place: link() is
  // atomic and fails if the lock exists, so no one ever reads a half-written lock and
  // mistakes a live holder for a crashed one.
  const mine = `${name}.${process.pid}.tmp`;
  const abandon = () => {
    rmSync(kitbash.at(mine), { force: true });
    kitbash.close();
  };
  try {
    rmSync(kitbash.at(mine), { force: true });
    writeNewFile(kitbash, mine, JSON.stringify(me), 0o644, false);
  } catch (e) {
    abandon();
    throw e;
  }
  const attempt = (): Attempt => {
    try {
      linkSync(kitbash.at(mine), kitbash.at(name));
      rmSync(kitbash.at(mine), { force: true });
      return {
        release: () => {
          try {
            const h = readHolder(kitbash.at(name));
            if (h && h.pid === process.pid) rmSync(kitbash.at(name), { force: true });
            // A failed first command leaves no empty .kitbash/ behind.
            if (created) withProjectDir(root, '', {}, (r) => rmdirSync(r.at('.kitbash')));
          } catch {
            // not empty: something was installed
          } finally {
            kitbash.close();
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = readHolder(kitbash.at(name));
    if (holder === undefined || (holder.host === me.host && !processAlive(holder.pid))) {
      // Stale (dead holder, or a torn file from a crash while writing it): take it over
      // by renaming it aside, so two racing processes cannot both delete and create.
      const aside = `${name}.stale.${process.pid}`;
      try {
        renameSync(kitbash.at(name), kitbash.at(aside));
        rmSync(kitbash.at(aside), { force: true });
      } catch {
        // someone else took it over first; look again
      }
      return { waitMs: 0 };
    }
    if (Date.now() >= deadline) {
      throw new CodedError(
        'forbidden',
        `another skillsmith process (pid ${holder.pid}${holder.host !== me.host ? ` on ${holder.host}` : ''}, running "${holder.command}" since ${holder.since}) is changing this project — wait for it to finish, or delete ${PROJECT_LOCK} if that process is gone`,
      );
    }
    return { waitMs: 50 };
  };
  return { attempt, abandon };
}

/**
 * Serialise changes to one project: `.kitbash/.skillsmith.lock` is created exclusively
 * and holds the owner's pid. A lock whose owner is dead (same host) is taken over; a
 * live one is waited for, then refused with a message naming the holder. This one waits
 * by blocking the thread (for the few callers that are synchronous); install, update and
 * remove wait with acquireProjectLockAsync.
 */
export function acquireProjectLock(root: string, opts: ProjectLockOptions): () => void {
  const l = locker(root, opts);
  try {
    for (;;) {
      const a = l.attempt();
      if ('release' in a) return a.release;
      if (a.waitMs) sleep(a.waitMs);
    }
  } catch (e) {
    l.abandon();
    throw e;
  }
}

/** acquireProjectLock, waiting for a live holder on a timer: the thread keeps running meanwhile. */
export async function acquireProjectLockAsync(root: string, opts: ProjectLockOptions): Promise<() => void> {
  const l = locker(root, opts);
  try {
    for (;;) {
      const a = l.attempt();
      if ('release' in a) return a.release;
      await new Promise((resolve) => setTimeout(resolve, a.waitMs));
    }
  } catch (e) {
    l.abandon();
    throw e;
  }
}

/** Run `fn` while holding the project lock. */
export async function withProjectLock<T>(root: string, command: string, fn: () => T | Promise<T>): Promise<T> {
  const release = await acquireProjectLockAsync(root, { command });
  try {
    return await fn();
  } finally {
    release();
  }
}
