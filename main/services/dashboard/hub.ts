import type { Dashboard } from '../../../shared/ipc/channels/project';
import type { DashboardEngines } from './engines';
import { createScanner, type Scanner } from './scanner';
import { watchProject, type ProjectWatcher } from './watch';

export interface ProjectHandle {
  readonly root: string;
  /** The current scan; cached until files change. */
  dashboard(): Promise<Dashboard>;
  release(): void;
}

interface Entry {
  root: string;
  refs: number;
  cached: Promise<Dashboard> | undefined;
  watcher: ProjectWatcher;
  listeners: Set<(paths: string[]) => void>;
}

/**
 * Open projects, shared between the windows (or browser tabs) that look at them: one
 * watcher and one cached scan per folder, released when the last viewer goes.
 */
export class ProjectHub {
  private readonly entries = new Map<string, Entry>();
  private readonly scan: Scanner;

  /**
   * Scans run on a worker thread (see ./scanner.ts) unless `engines` replaces the wired
   * ones (./adapters) — then in this thread, with those engines.
   */
  constructor(
    engines?: DashboardEngines,
    private readonly debounceMs = 120,
  ) {
    this.scan = engines ? async (root) => (await import('./scan')).scanProject(root, engines) : createScanner();
  }

  acquire(root: string, onChange: (paths: string[]) => void): ProjectHandle {
    let entry = this.entries.get(root);
    if (!entry) {
      const created: Entry = {
        root,
        refs: 0,
        cached: undefined,
        listeners: new Set(),
        watcher: watchProject(
          root,
          (paths) => {
            created.cached = undefined;
            for (const l of created.listeners) l(paths);
          },
          this.debounceMs,
        ),
      };
      entry = created;
      this.entries.set(root, entry);
    }
    const e = entry;
    e.refs++;
    e.listeners.add(onChange);
    let released = false;
    return {
      root,
      // The scan code (lint, targets, lock, compile) loads on the first scan, so a host or
      // window can be up before it is parsed.
      dashboard: () => {
        if (!e.cached) {
          const scan = this.scan(root);
          e.cached = scan;
          scan.catch(() => {
            if (e.cached === scan) e.cached = undefined;
          });
        }
        return e.cached;
      },
      release: () => {
        if (released) return;
        released = true;
        e.listeners.delete(onChange);
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
    this.scan.close?.();
  }
}
