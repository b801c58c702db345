import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { SkillReport } from '../../../shared/lint/report/model';
import { bundledEntry } from '../bundled';
import { checkLocation, type CheckOptions } from './lint';
import type { SkillLocation } from './locate';

/** Below this many skills a worker's start-up costs more than it saves. */
const PARALLEL_THRESHOLD = 64;
/** How long the helpers may go without posting a result before their share is redone here. */
const STALL_MS = 30_000;

/**
 * Threads beside the main one: one per further core (at most 3), or what
 * SKILLSMITH_THREADS asks for in total (1 = everything on the main thread).
 */
function helperThreads(): number {
  const asked = Number.parseInt(process.env.SKILLSMITH_THREADS ?? '', 10);
  return Number.isInteger(asked) && asked >= 1 ? Math.min(asked - 1, 15) : Math.min(availableParallelism() - 1, 3);
}

/** What a worker receives: the shared work queue and the skills to check. */
export interface WorkerJob {
  readonly locations: readonly SkillLocation[];
  readonly options: CheckOptions;
  /** Int32Array over a SharedArrayBuffer: [next index to claim, results posted]. */
  readonly state: SharedArrayBuffer;
  readonly port: MessagePort;
}

/**
 * Check every location, on this thread and on helper threads that pull from the same
 * atomic counter, so a few huge skills never leave one core idle. Synchronous on purpose:
 * the CLI stays a straight line, and results come back in input order.
 */
export function checkAll(locations: readonly SkillLocation[], options: CheckOptions): SkillReport[] {
  const results: (SkillReport | undefined)[] = Array.from({ length: locations.length }, () => undefined);
  const workerFile = bundledEntry('lint-worker.js');
  const helpers = locations.length < PARALLEL_THRESHOLD || workerFile === undefined ? 0 : helperThreads();
  if (process.env.SKILLSMITH_TIMINGS === '1')
    process.stderr.write(`timings: lint ${locations.length} skills on ${helpers + 1} thread(s)\n`);

  const state = new SharedArrayBuffer(8);
  const counters = new Int32Array(state);
  const channels: { port: MessagePort; worker: Worker }[] = [];
  for (let w = 0; workerFile !== undefined && w < helpers; w++) {
    const { port1, port2 } = new MessageChannel();
    const job: WorkerJob = { locations, options, state, port: port2 };
    const worker = new Worker(workerFile, { workerData: job, transferList: [port2] });
    channels.push({ port: port1, worker });
  }

  for (let i = Atomics.add(counters, 0, 1); i < locations.length; i = Atomics.add(counters, 0, 1)) {
    results[i] = checkLocation(locations[i]!, options);
  }

  // Collect what the helpers post. A helper that dies mid-skill never posts that result,
  // so after a long stall the missing skills are checked here instead.
  let missing = results.filter((r) => r === undefined).length;
  const drain = () => {
    for (const { port } of channels) {
      for (let msg = receiveMessageOnPort(port); msg; msg = receiveMessageOnPort(port)) {
        const { index, report } = msg.message as { index: number; report: SkillReport };
        if (results[index] === undefined) missing--;
        results[index] = report;
      }
    }
  };
  let lastProgress = Date.now();
  for (drain(); missing > 0 && Date.now() - lastProgress < STALL_MS; drain()) {
    const seen = Atomics.load(counters, 1);
    if (Atomics.wait(counters, 1, seen, 250) !== 'timed-out') lastProgress = Date.now();
  }
  for (const { worker } of channels) void worker.terminate();
  return results.map((r, i) => r ?? checkLocation(locations[i]!, options));
}
