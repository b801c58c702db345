// First: a background worker lowers its priority before loading the scan code.
import './background';
import { parentPort } from 'node:worker_threads';
import { fail, ok } from '../../../shared/result';
import { runJob, type Job } from './jobs';
import type { ScanAnswer } from './scanner';

// The dashboard's scans and reports on their own thread, so the Electron main process
// (windows, menus, IPC) and the loopback host (serving the page) stay responsive while a
// large project is read, linted and priced. One request at a time, answered in order, each
// a ScanAnswer.
parentPort?.on('message', (msg: { id: number; job: Job }) => {
  let answer: ScanAnswer;
  try {
    answer = { id: msg.id, ...ok(runJob(msg.job)) };
  } catch (e) {
    answer = { id: msg.id, ...fail('internal', e instanceof Error ? e.message : String(e)) };
  }
  parentPort!.postMessage(answer);
});
