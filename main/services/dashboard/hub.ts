import type { Dashboard, WatchStatus } from '../../../shared/ipc/channels/project';
import type { LivePreview, PreviewRequest } from '../../../shared/ipc/channels/compile';
import type { CostsReport, Explanation, KeptReport, MatrixReport } from '../../../shared/ipc/channels/reports';
import { readCachedDashboard, readKeptReport, type DashboardCache } from './cache';
import type { DashboardEngines } from './engines';
import type { Job, ResultOf } from './jobs';
import { createScanner, inProcessScanner, type Scanner } from './scanner';
import { watchProject, type ProjectWatcher } from './watch';

export interface ProjectHandle {
  readonly root: string;
  /** The current scan; cached until files change. */
  dashboard(): Promise<Dashboard>;
  /**
   * The last scan kept from an earlier run (possibly out of date), or null. Checked here only
   * for being this project's; its shape is checked where every answer is, at the contract.
   */
  cachedDashboard(): Dashboard | null;
  costs(): Promise<CostsReport>;
  /** The last Costs or Matrix report kept from an earlier answer (possibly out of date), or null. */
  keptReport<K extends 'costs' | 'matrix'>(kind: K): KeptReport<K> | null;
  matrix(): Promise<MatrixReport>;
  explain(skill: string, target: string): Promise<Explanation | null>;
  /** Whether changes on disk reach the viewers, once the first watch walk is done. */
  watchStatus(): Promise<WatchStatus>;
  /** Why changes in folder `rel` or under it might not reach the viewers; null when all are watched. */
  watchGap(rel: string): Promise<string | null>;
  /** One skill's live compile previews with its unsaved buffers (on a thread of their own). */
  preview(request: PreviewRequest): Promise<LivePreview>;
  release(): void;
}

/** States of files, numbered across every hub of the process (a job's memo is keyed by it). */
let generations = 0;

interface Entry {
  root: string;
  refs: number;
  /** Counts the bursts of file changes: a report is of one state of the files. */
  generation: number;
  /** Answers for the current generation, by question. */
  answers: Map<string, Promise<unknown>>;
  watcher: ProjectWatcher;
  listeners: Set<(paths: string[]) => void>;
  watchListeners: Set<(status: WatchStatus) => void>;
}

/**
 * Open projects, shared between the windows (or browser tabs) that look at them: one
 * watcher per folder and one answer per question (scan, costs, matrix) until its files
 * change, released when the last viewer goes.
 */
export class ProjectHub {
  private readonly entries = new Map<string, Entry>();
  private readonly run: Scanner;
  /** The live previews' thread: an edit's preview never waits behind a scan of the whole project. */
  private readonly previews: Scanner;

  /**
   * Jobs run on a worker thread (see ./scanner.ts) unless `engines` replaces the wired
   * ones (./adapters) — then the scan runs in this thread, with those engines. With a
   * `cache`, each fresh scan is kept there for the next launch's first paint.
   */
  constructor(
    engines?: DashboardEngines,
    private readonly debounceMs = 120,
    private readonly cache?: DashboardCache,
  ) {
    this.run = engines
      ? ((async (job: Job) =>
          job.kind === 'scan'
            ? (await import('./scan')).scanProject(job.root, engines)
            : inProcessScanner(job)) as Scanner)
      : createScanner({ background: true });
    this.previews = engines ? inProcessScanner : createScanner();
  }

  /** `onWatch` hears when the watch's status changes (a folder could no longer be watched). */
  acquire(root: string, onChange: (paths: string[]) => void, onWatch?: (status: WatchStatus) => void): ProjectHandle {
    let entry = this.entries.get(root);
    if (!entry) {
      const created: Entry = {
        root,
        refs: 0,
        generation: ++generations,
        answers: new Map(),
        listeners: new Set(),
        watchListeners: new Set(),
        watcher: watchProject(
          root,
          (paths) => {
            created.generation = ++generations;
            created.answers = new Map();
            for (const l of created.listeners) l(paths);
          },
          this.debounceMs,
          (status) => {
            for (const l of created.watchListeners) l(status);
          },
        ),
      };
      entry = created;
      this.entries.set(root, entry);
    }
    const e = entry;
    e.refs++;
    e.listeners.add(onChange);
    if (onWatch) e.watchListeners.add(onWatch);
    let released = false;
    // The code behind each job (lint, targets, lock, compile) loads on the first one, so a
    // host or window can be up before it is parsed. A job reads the files only once they are
    // all watched, so no change slips in between its read and the watch; its worker starts
    // meanwhile.
    const run = <J extends Job>(job: J, scanner: Scanner = this.run): Promise<ResultOf<J>> => {
      scanner.prepare?.();
      return e.watcher.ready.then(() => scanner(job));
    };
    const ask = <J extends Job>(key: string, job: J): Promise<ResultOf<J>> => {
      const answers = e.answers;
      let p = answers.get(key) as Promise<ResultOf<J>> | undefined;
      if (!p) {
        const asked = run(job);
        p = asked;
        answers.set(key, asked);
        asked.catch(() => {
          if (answers.get(key) === asked) answers.delete(key);
        });
      }
      return p;
    };
    const cache = this.cache;
    const cacheFile = cache?.fileFor(root);
    const keptIn = (kind: 'costs' | 'matrix') => (cache ? { cacheFile: cache.fileFor(root, kind) } : {});
    return {
      root,
      dashboard: () => ask('scan', { kind: 'scan', root, ...(cacheFile ? { cacheFile } : {}) }),
      cachedDashboard: () => (cacheFile ? readCachedDashboard(cacheFile, root) : null),
      keptReport: (kind) => (cache ? readKeptReport(cache.fileFor(root, kind), root, kind) : null),
      watchStatus: () => e.watcher.ready.then(() => e.watcher.status()),
      watchGap: (rel) => e.watcher.ready.then(() => e.watcher.gapUnder(rel)),
      costs: () => ask('costs', { kind: 'costs', root, generation: e.generation, ...keptIn('costs') }),
      matrix: () => ask('matrix', { kind: 'matrix', root, generation: e.generation, ...keptIn('matrix') }),
      // Not kept: each is cheap once the matrix has loaded this state of the files.
      explain: (skill, target) => run({ kind: 'explain', root, generation: e.generation, skill, target }),
      // Not kept either: each asks with other buffers.
      preview: (request) => run({ kind: 'preview', root, generation: e.generation, request }, this.previews),
      release: () => {
        if (released) return;
        released = true;
        e.listeners.delete(onChange);
        if (onWatch) e.watchListeners.delete(onWatch);
        if (--e.refs === 0) {
          e.watcher.close();
          this.entries.delete(root);
        }
      },
    };
  }

  /** How many folders are open (for tests). */
  get size(): number {
    return this.entries.size;
  }

  closeAll(): void {
    for (const e of this.entries.values()) e.watcher.close();
    this.entries.clear();
    this.run.close?.();
    this.previews.close?.();
  }
}
