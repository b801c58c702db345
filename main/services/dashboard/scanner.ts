import { Worker } from 'node:worker_threads';
import type { Dashboard } from '../../../shared/ipc/channels/project';
import type { Result } from '../../../shared/result';
import { bundledEntry } from '../bundled';

/** The worker's answer to one request; a failure's message is what the scan threw. */
export type ScanAnswer = { id: number } & Result<Dashboard>;

export interface Scanner {
  (root: string): Promise<Dashboard>;
  /** Stop the worker thread, if one was started. */
  close?(): void;
}

/** In this thread: the scan code loads on first use. */
export const inProcessScanner: Scanner = async (root) => (await import('./scan')).scanProject(root);

/**
 * Scans on a worker thread when the built worker exists (the app and `serve`), else in
 * this thread (tests run the TypeScript sources). A worker that fails to start or dies
 * hands its pending scans, and all later ones, to this thread.
 */
export function createScanner(): Scanner {
  const file = bundledEntry('scan-worker.js');
  if (!file) return inProcessScanner;
  let worker: Worker | undefined;
  let broken = false;
  let next = 1;
  const pending = new Map<number, { root: string; ok: (d: Dashboard) => void; fail: (e: Error) => void }>();

  const giveUp = () => {
    broken = true;
    worker = undefined;
    for (const [id, p] of pending) {
      pending.delete(id);
      inProcessScanner(p.root).then(p.ok, p.fail);
    }
  };
  const start = (): Worker => {
    const w = new Worker(file);
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

  const scanner: Scanner = (root) => {
    if (broken) return inProcessScanner(root);
    return new Promise<Dashboard>((ok, fail) => {
      const id = next++;
      pending.set(id, { root, ok, fail });
      try {
        (worker ??= start()).postMessage({ id, root });
      } catch {
        giveUp();
      }
    });
  };
  scanner.close = () => {
    const w = worker;
    worker = undefined;
    broken = true;
    void w?.terminate();
  };
  return scanner;
}
