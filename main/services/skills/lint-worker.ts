import { workerData } from 'node:worker_threads';
import { checkLocation } from './lint';
import type { WorkerJob } from './pool';

// A helper thread of checkAll(): pull indexes from the shared counter until the queue is
// empty, posting each result and waking the main thread.
const job = workerData as WorkerJob;
const counters = new Int32Array(job.state);
for (let i = Atomics.add(counters, 0, 1); i < job.locations.length; i = Atomics.add(counters, 0, 1)) {
  job.port.postMessage({ index: i, report: checkLocation(job.locations[i]!, job.options) });
  Atomics.add(counters, 1, 1);
  Atomics.notify(counters, 1);
}
