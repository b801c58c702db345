import { workerData } from 'node:worker_threads';
import { checkThrough } from './lint';
import type { WorkerJob, WorkerResult } from './pool';
import { useNativeSha256 } from '../native-sha256';

useNativeSha256();

// A helper thread of checkAll(): pull indexes from the shared counter until the queue is
// empty, posting each result and waking the main thread. A skill the cache holds is posted
// as its key alone; the main thread reads the report from the cache.
const job = workerData as WorkerJob;
const counters = new Int32Array(job.state);
const known = job.cache && new Set(job.cache.keys);
const stamps = job.cache && new Map(job.cache.stamps);
const probe = job.cache &&
  known &&
  stamps && {
    engine: job.cache.engine,
    has: (key: string) => known.has(key),
    stampsOf: (display: string) => stamps.get(display),
  };
for (let i = Atomics.add(counters, 0, 1); i < job.locations.length; i = Atomics.add(counters, 0, 1)) {
  const result: WorkerResult = { index: i, checked: checkThrough(job.locations[i]!, job.options, probe) };
  job.port.postMessage(result);
  Atomics.add(counters, 1, 1);
  Atomics.notify(counters, 1);
}
