import { parentPort } from 'node:worker_threads';
import { fail, ok } from '../../../shared/result';
import { scanProject } from './scan';
import type { ScanAnswer } from './scanner';

// The dashboard scan on its own thread, so the Electron main process (windows, menus,
// IPC) and the loopback host (serving the page) stay responsive while a large project is
// read, linted and checked. One request at a time, answered in order, each a ScanAnswer.
parentPort?.on('message', (msg: { id: number; root: string }) => {
  let answer: ScanAnswer;
  try {
    answer = { id: msg.id, ...ok(scanProject(msg.root)) };
  } catch (e) {
    answer = { id: msg.id, ...fail('internal', e instanceof Error ? e.message : String(e)) };
  }
  parentPort!.postMessage(answer);
});
