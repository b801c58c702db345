import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { RecentProject } from '../../../shared/ipc/channels/app';
import { writeFileAtomic } from '../fs/atomic';

const MAX_RECENT = 12;
const FILE = 'recent-projects.json';

interface StoredProject {
  path: string;
  openedAt: string;
}

/** The file's shape, checked by hand (this runs before the URL is printed; zod would add its load time). */
function parseStored(raw: unknown): StoredProject[] | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { version, projects } = raw as { version?: unknown; projects?: unknown };
  if (version !== 1 || !Array.isArray(projects) || projects.length > 100) return undefined;
  const ok = projects.every(
    (p) =>
      typeof p === 'object' &&
      p !== null &&
      typeof (p as StoredProject).path === 'string' &&
      typeof (p as StoredProject).openedAt === 'string',
  );
  return ok ? projects.map((p: StoredProject) => ({ path: p.path, openedAt: p.openedAt })) : undefined;
}

/**
 * Recently opened projects, kept as one small JSON file in the app's data directory
 * (Electron's userData; the host's data dir). Written atomically; a corrupt or foreign
 * file reads as empty rather than breaking the app.
 */
export class RecentProjects {
  readonly file: string;
  constructor(dataDir: string) {
    this.file = join(dataDir, FILE);
  }

  private read(): StoredProject[] {
    try {
      return parseStored(JSON.parse(readFileSync(this.file, 'utf8'))) ?? [];
    } catch {
      return [];
    }
  }

  private write(projects: StoredProject[]): void {
    writeFileAtomic(this.file, JSON.stringify({ version: 1, projects }, null, 2) + '\n');
  }

  list(): RecentProject[] {
    return this.read().map((p) => ({
      path: p.path,
      name: basename(p.path),
      openedAt: p.openedAt,
      exists: existsSync(p.path),
    }));
  }

  /** The most recent project that still exists. */
  last(): string | undefined {
    return this.list().find((p) => p.exists)?.path;
  }

  add(path: string, now: Date = new Date()): void {
    const rest = this.read().filter((p) => p.path !== path);
    this.write([{ path, openedAt: now.toISOString() }, ...rest].slice(0, MAX_RECENT));
  }

  forget(path: string): void {
    this.write(this.read().filter((p) => p.path !== path));
  }
}
