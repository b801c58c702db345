import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import type { ScanWorkerData } from './scanner';

/** The nice value of a background scan thread: it yields the CPU to the window and the page. */
const BACKGROUND_NICE = 10;

/**
 * Imported first by the scan worker, before the code it loads: a worker asked to run in the
 * background lowers its own thread's priority. On Linux a thread's id names it to
 * setpriority(2), so only this thread yields, not the process; elsewhere, or where the
 * system refuses, it keeps the priority it has. The dashboard's scan — minutes of CPU at
 * worst, seconds at launch — then never competes on equal terms with the page it feeds,
 * which paints the kept scan meanwhile.
 */
function lowerThisThread(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, BACKGROUND_NICE);
  } catch {
    // not Linux, or not allowed: the thread keeps its priority
  }
}

if (((workerData ?? {}) as Partial<ScanWorkerData>).background === true) lowerThisThread();
