import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Platform } from '../ipc/session';
import { defaultDataDir } from '../services/dashboard/data-dir';
import { ProjectHub } from '../services/dashboard/hub';
import { RecentProjects } from '../services/dashboard/recent';

/** The example workspace next to the build (out/main → ../../examples/workspace), if present. */
export function bundledExample(fromDir: string = __dirname): string | null {
  const p = resolve(fromDir, '..', '..', 'examples', 'workspace');
  return existsSync(p) ? p : null;
}

/** The browser host's platform: no native dialog or menus; the picker takes a typed path. */
export function hostPlatform(opts: { version: string; dataDir?: string; examplePath?: string | null; hub?: ProjectHub }): Platform {
  return {
    version: opts.version,
    examplePath: opts.examplePath === undefined ? bundledExample() : opts.examplePath,
    recent: new RecentProjects(opts.dataDir ?? defaultDataDir()),
    hub: opts.hub ?? new ProjectHub(),
    capabilities: { pickFolder: false, nativeMenus: false },
  };
}
