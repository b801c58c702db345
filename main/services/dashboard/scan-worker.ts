// First: a background worker lowers its priority before loading the scan code.
import './background';
import { parentPort, workerData } from 'node:worker_threads';
import { fail, ok } from '../../../shared/result';
import { useCodeCache } from '../code-cache';
import type { Job } from './jobs';
import type { ScanAnswer, ScanWorkerData } from './scanner';
import { useNativeSha256 } from '../native-sha256';

useNativeSha256();

// The dashboard's scans and reports on their own thread, so the Electron main process
// (windows, menus, IPC) and the loopback host (serving the page) stay responsive while a
// large project is read, linted and priced. One request at a time, answered in order, each
// a ScanAnswer.
//
// The scan code is loaded here, not imported statically (the bundle would load a static
// import before this file's own code): after the priority is lowered, and through the code
// cache when the thread that started this one uses it (`serve`). The first job compiles most
// of what later launches run, so what it compiled is kept once it is answered.
const { codeCache: bundle } = (workerData ?? {}) as Partial<ScanWorkerData>;
const codeCache = bundle ? useCodeCache(bundle) : undefined;
const jobs = import('./jobs');
let kept = false;

parentPort?.on('message', (msg: { id: number; job: Job }) => {
  void jobs
    .then(({ runJob }) => ok(runJob(msg.job)))
    .catch((e: unknown) => fail('internal', e instanceof Error ? e.message : String(e)))
    .then((result) => {
      const answer: ScanAnswer = { id: msg.id, ...result };
      parentPort!.postMessage(answer);
      if (!kept) {
        kept = true;
        codeCache?.keep();
      }
    });
});
