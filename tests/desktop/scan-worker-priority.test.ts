/**
 * The built scan worker (out/main/scan-worker.js, what the app and `serve` start): the
 * dashboard's worker lowers its own thread's priority, the previews' worker does not, and
 * neither touches the process's other threads. Linux only: elsewhere the worker keeps its
 * priority by design (main/services/dashboard/background.ts).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { repoRoot, requireOrSkip } from '../support/paths';

const file = join(repoRoot, 'out', 'main', 'scan-worker.js');
const built = requireOrSkip('the built scan worker (npm run build)', existsSync(file));

/** Nice value of every thread of this process, by thread id (field 19 of /proc/…/stat). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count from the closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}

async function withWorker(background: boolean, look: (before: Map<number, number>) => void): Promise<void> {
  const before = niceByThread();
  const w = new Worker(file, { workerData: { background } });
  try {
    await new Promise<void>((ok, fail) => {
      w.once('online', () => ok());
      w.once('error', fail);
    });
    // 'online' is before the entry module ran; the worker answers a message only after.
    await new Promise<void>((ok) => {
      w.once('message', () => ok());
      w.postMessage({ id: 1, job: { kind: 'no-such-job' } });
    });
    look(before);
  } finally {
    await w.terminate();
  }
}

describe.skipIf(!built || process.platform !== 'linux')('the scan worker thread', () => {
  it('runs the dashboard scan at nice 10 and leaves every other thread as it was', async () => {
    await withWorker(true, (before) => {
      const now = niceByThread();
      const added = [...now].filter(([tid]) => !before.has(tid));
      expect(added.map(([, nice]) => nice)).toContain(10);
      for (const [tid, nice] of before) if (now.has(tid)) expect(now.get(tid)).toBe(nice);
    });
  });

  it('runs the previews at the priority it was started with', async () => {
    await withWorker(false, (before) => {
      const base = before.get(process.pid);
      const added = [...niceByThread()].filter(([tid]) => !before.has(tid));
      expect(added.length).toBeGreaterThan(0);
      for (const [, nice] of added) expect(nice).toBe(base);
    });
  });
});
