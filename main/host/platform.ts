import { join } from 'node:path';
import type { Platform } from '../ipc/session';
import { findUp } from './locate';
import { defaultDataDir } from '../services/dashboard/data-dir';
import { DashboardCache } from '../services/dashboard/cache';
import { ProjectHub } from '../services/dashboard/hub';
import { RecentProjects } from '../services/dashboard/recent';

/** The example workspace of the repository the build sits in, if present. */
export function bundledExample(fromDir: string = __dirname): string | null {
  return findUp(join('examples', 'workspace'), fromDir) ?? null;
}

/** The browser host's platform: no native dialog or menus; the picker takes a typed path. */
export function hostPlatform(opts: {
  version: string;
  dataDir?: string;
  examplePath?: string | null;
  hub?: ProjectHub;
}): Platform {
  const dataDir = opts.dataDir ?? defaultDataDir();
  return {
    version: opts.version,
    examplePath: opts.examplePath === undefined ? bundledExample() : opts.examplePath,
    recent: new RecentProjects(dataDir),
    hub: opts.hub ?? new ProjectHub(undefined, undefined, new DashboardCache(dataDir)),
    capabilities: { pickFolder: false, nativeMenus: false },
  };
}
