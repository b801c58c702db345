import { z } from 'zod';
import { channel, Empty } from '../define';
import { AbsolutePath } from '../schemas';

/** Application-level channels: what the app is, recent projects, the folder picker. */

export const RecentProject = z.object({
  path: z.string(),
  name: z.string(),
  /** ISO 8601 time it was last opened. */
  openedAt: z.string(),
  /** False when the folder has gone since (shown greyed, can be forgotten). */
  exists: z.boolean(),
});
export type RecentProject = z.infer<typeof RecentProject>;

export const AppInfo = z.object({
  version: z.string(),
  /** Which capabilities this transport's platform offers (the browser host has no native dialog). */
  capabilities: z.object({ pickFolder: z.boolean(), nativeMenus: z.boolean() }),
  /** The example workspace bundled with the app, when it is present. */
  examplePath: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const appChannels = {
  info: channel('version, platform capabilities and the bundled example', Empty, AppInfo),
  recentProjects: channel(
    'projects opened before, newest first',
    Empty,
    z.object({ projects: z.array(RecentProject) }),
  ),
  forgetRecent: channel(
    'drop one path from the recent list',
    z.object({ path: AbsolutePath }).strict(),
    z.object({ projects: z.array(RecentProject) }),
  ),
  pickFolder: channel(
    'native open-folder dialog; null when cancelled',
    Empty,
    z.object({ path: z.string().nullable() }),
  ),
} as const;
