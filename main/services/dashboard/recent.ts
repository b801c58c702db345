import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { RecentProject } from '../../../shared/ipc/channels/app';
import { writeFileAtomic } from '../fs/atomic';

const MAX_RECENT = 12;
const FILE = 'recent-projects.json';

const Stored = z.object({
  version: z.literal(1),
  projects: z.array(z.object({ path: z.string(), openedAt: z.string() })).max(100),
});

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

  private read(): { path: string; openedAt: string }[] {
    try {
      const parsed = Stored.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data.projects : [];
    } catch {
      return [];
    }
  }

  private write(projects: { path: string; openedAt: string }[]): void {
    writeFileAtomic(this.file, JSON.stringify({ version: 1, projects }, null, 2) + '\n');
  }

  list(): RecentProject[] {
    return this.read().map((p) => ({ path: p.path, name: basename(p.path), openedAt: p.openedAt, exists: existsSync(p.path) }));
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
