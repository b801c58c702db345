import { access } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Result } from '../../../shared/result';
import { bundledEntry } from '../bundled';
import { codeCacheBundle } from '../code-cache';
import type { Job, ResultOf } from './jobs';

/** What the scan worker is started with. */
export interface ScanWorkerData {
  /** Run at a lower priority (./background.ts). */
  readonly background: boolean;
  /** The bundle folder whose code cache the starting thread uses (../code-cache.ts). */
  readonly codeCache?: string;
}

/** The worker's answer to one job; a failure's message is what the job threw. */
export type ScanAnswer = { id: number } & Result<unknown>;

export interface Scanner {
  <J extends Job>(job: J): Promise<ResultOf<J>>;
  /** Start the worker thread now, so its start-up overlaps whatever comes before the first job. */
  prepare?(): void;
  /** Stop the worker thread, if one was started. */
  close?(): void;
}

/** In this thread: the scan code loads on first use. */
export const inProcessScanner: Scanner = async (job) => (await import('./jobs')).runJob(job);

/**
 * Runs jobs on a worker thread when the built worker exists (the app and `serve`), else in
 * this thread (tests run the TypeScript sources). A worker that fails to start or dies
 * hands its pending jobs, and all later ones, to this thread. `background`: the worker runs
 * at a lower priority (./background.ts).
 */
export function createScanner(options: { background?: boolean } = {}): Scanner {
  const file = bundledEntry('scan-worker.js');
  if (!file) return inProcessScanner;
  let worker: Worker | undefined;
  let broken = false;
  let next = 1;
  const pending = new Map<number, { job: Job; ok: (v: unknown) => void; fail: (e: Error) => void }>();

  const giveUp = () => {
    broken = true;
    worker = undefined;
    for (const [id, p] of pending) {
      pending.delete(id);
      inProcessScanner(p.job).then(p.ok, p.fail);
    }
  };
  const start = (): Worker => {
    // libuv's thread pool takes its threads' priority from the thread that first uses it:
    // use it here first, so a background worker's async I/O can never start it at its own.
    if (options.background) access(file, () => undefined);
    const codeCache = codeCacheBundle();
    const workerData: ScanWorkerData = { background: options.background === true, ...(codeCache ? { codeCache } : {}) };
    const w = new Worker(file, { workerData });
    w.on('message', (m: ScanAnswer) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.ok) p.ok(m.value);
      else p.fail(new Error(m.error.message));
    });
    w.on('error', giveUp);
    w.on('exit', (code) => {
      if (worker === w && code !== 0) giveUp();
    });
    // After the listeners: adding a 'message' listener refs the worker's port again, and a
    // ref'd port would keep `serve` alive after it closed.
    w.unref();
    return w;
  };

  const scanner = (<J extends Job>(job: J): Promise<ResultOf<J>> => {
    if (broken) return inProcessScanner(job);
    return new Promise<ResultOf<J>>((ok, fail) => {
      const id = next++;
      pending.set(id, { job, ok: ok as (v: unknown) => void, fail });
      try {
        (worker ??= start()).postMessage({ id, job });
      } catch {
        giveUp();
      }
    });
  }) as Scanner;
  scanner.prepare = () => {
    if (broken || worker) return;
    try {
      worker = start();
    } catch {
      giveUp();
    }
  };
  scanner.close = () => {
    const w = worker;
    worker = undefined;
    broken = true;
    void w?.terminate();
  };
  return scanner;
}
