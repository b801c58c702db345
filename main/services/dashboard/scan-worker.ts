import { parentPort } from 'node:worker_threads';
import { scanProject } from './scan';

// The dashboard scan on its own thread, so the Electron main process (windows, menus,
// IPC) and the loopback host (serving the page) stay responsive while a large project is
// read, linted and checked. One request at a time, answered in order.
parentPort?.on('message', (msg: { id: number; root: string }) => {
  try {
    parentPort!.postMessage({ id: msg.id, ok: true, value: scanProject(msg.root) });
  } catch (e) {
    parentPort!.postMessage({ id: msg.id, ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});
