import { plural } from '../../../shared/text/format';
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { SkillReport } from '../../../shared/lint/report/model';
import { bundledEntry } from '../bundled';
import type { LintCache, StampedKey } from './cache';
import { checkThrough, type CacheProbe, type CheckOptions, type Checked } from './lint';
import type { SkillLocation } from './locate';

/** Below this many skills a worker's start-up costs more than it saves. */
const PARALLEL_THRESHOLD = 64;
/** How long the helpers may go without posting a result before their share is redone here. */
const STALL_MS = 30_000;
/** With a cache that knows every skill, helpers start only after this many misses. */
const MISSES_BEFORE_HELPERS = 8;

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
  /** The cache's engine stamp, keys and recorded folder stamps, when there is a cache. */
  readonly cache?: {
    readonly engine: string;
    readonly keys: readonly string[];
    readonly stamps: readonly (readonly [string, readonly StampedKey[]])[];
  };
}

/** What a worker posts per skill. */
export interface WorkerResult {
  readonly index: number;
  readonly checked: Checked;
}

/**
 * Check every location, on this thread and on helper threads that pull from the same
 * atomic counter, so a few huge skills never leave one core idle. Synchronous on purpose:
 * the CLI stays a straight line, and results come back in input order.
 *
 * With a cache, a skill whose key it holds is not linted again, and the new reports are
 * saved to it at the end. A cache that knows as many skills as there are starts no helpers
 * until lints turn out to be needed: reading and hashing alone is quicker than a thread.
 * `answered` holds reports the caller already took from the cache (by folder stamp, D132):
 * those locations are not checked again.
 */
export function checkAll(
  all: readonly SkillLocation[],
  options: CheckOptions,
  cache?: LintCache,
  answered: readonly (SkillReport | undefined)[] = [],
): SkillReport[] {
  const todo: number[] = [];
  for (let i = 0; i < all.length; i++) if (answered[i] === undefined) todo.push(i);
  const locations = todo.length === all.length ? all : todo.map((i) => all[i]!);
  const results: (Checked | undefined)[] = Array.from({ length: locations.length }, () => undefined);
  const workerFile = bundledEntry('lint-worker.js');
  const helpers = locations.length < PARALLEL_THRESHOLD || workerFile === undefined ? 0 : helperThreads();
  const probe: CacheProbe | undefined = cache && {
    engine: cache.engine,
    has: (k) => cache.has(k),
    stampsOf: (d) => cache.stampsOf(d),
  };

  const state = new SharedArrayBuffer(8);
  const counters = new Int32Array(state);
  const channels: { port: MessagePort; worker: Worker }[] = [];
  const startHelpers = () => {
    if (channels.length > 0 || workerFile === undefined) return;
    const known = cache && { engine: cache.engine, keys: cache.keys(), stamps: cache.allStamps() };
    for (let w = 0; w < helpers; w++) {
      const { port1, port2 } = new MessageChannel();
      const job: WorkerJob = { locations, options, state, port: port2, ...(known ? { cache: known } : {}) };
      const worker = new Worker(workerFile, { workerData: job, transferList: [port2] });
      channels.push({ port: port1, worker });
    }
  };
  const warm = cache !== undefined && cache.size >= locations.length;
  if (helpers > 0 && !warm) startHelpers();

  let misses = 0;
  for (let i = Atomics.add(counters, 0, 1); i < locations.length; i = Atomics.add(counters, 0, 1)) {
    const checked = checkThrough(locations[i]!, options, probe);
    results[i] = checked;
    if (checked.report && ++misses === MISSES_BEFORE_HELPERS && helpers > 0) startHelpers();
  }

  // Collect what the helpers post. A helper that dies mid-skill never posts that result,
  // so after a long stall the missing skills are checked here instead.
  let missing = results.filter((r) => r === undefined).length;
  const drain = () => {
    for (const { port } of channels) {
      for (let msg = receiveMessageOnPort(port); msg; msg = receiveMessageOnPort(port)) {
        const { index, checked } = msg.message as WorkerResult;
        if (results[index] === undefined) missing--;
        results[index] = checked;
      }
    }
  };
  let lastProgress = Date.now();
  for (drain(); missing > 0 && Date.now() - lastProgress < STALL_MS; drain()) {
    const seen = Atomics.load(counters, 1);
    if (Atomics.wait(counters, 1, seen, 250) !== 'timed-out') lastProgress = Date.now();
  }
  for (const { worker } of channels) void worker.terminate();

  let hits = all.length - locations.length;
  let read = 0;
  const reports = results.map((r, i): SkillReport => {
    let checked = r ?? checkThrough(locations[i]!, options, probe);
    if (checked.read) read++;
    if (!checked.report) {
      const cached = cache!.get(checked.key!);
      if (cached) {
        hits++;
        if (checked.stamp !== undefined) cache!.restamp(checked.key!, checked.stamp);
        return cached;
      }
      // A damaged entry: lint the folder as it is now, under the key of what is read now.
      checked = checkThrough(
        locations[i]!,
        options,
        cache && { engine: cache.engine, has: () => false, stampsOf: () => undefined },
      );
      if (checked.read) read++;
    }
    if (cache && checked.key !== undefined) cache.put(checked.key, checked.report!, checked.stamp);
    return checked.report!;
  });
  cache?.save();
  if (process.env.SKILLSMITH_TIMINGS === '1')
    process.stderr.write(
      `timings: lint ${all.length} skills on ${plural(channels.length + 1, 'thread')}, ${hits} from the cache, ` +
        `${plural(read, 'folder')} read\n`,
    );
  if (locations === all) return reports;
  const out = answered.slice() as SkillReport[];
  todo.forEach((at, j) => (out[at] = reports[j]!));
  return out;
}
