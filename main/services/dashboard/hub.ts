import type { Dashboard } from '../../../shared/ipc/channels/project';
import { ENGINES } from './adapters';
import type { DashboardEngines } from './engines';
import { scanProject } from './scan';
import { watchProject, type ProjectWatcher } from './watch';

export interface ProjectHandle {
  readonly root: string;
  /** The current scan; cached until files change. */
  dashboard(): Dashboard;
  release(): void;
}

interface Entry {
  root: string;
  refs: number;
  cached: Dashboard | undefined;
  watcher: ProjectWatcher;
  listeners: Set<(paths: string[]) => void>;
}

/**
 * Open projects, shared between the windows (or browser tabs) that look at them: one
 * watcher and one cached scan per folder, released when the last viewer goes.
 */
export class ProjectHub {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly engines: DashboardEngines = ENGINES,
    private readonly debounceMs = 120,
  ) {}

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
      dashboard: () => (e.cached ??= scanProject(root, this.engines)),
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
  }
}
