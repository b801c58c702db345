import { chmodSync, mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Skillsmith's per-user config folder: SKILLSMITH_CONFIG_DIR when set (tests, portable use),
 * else the platform's config location. Not the cache folder: clearing a cache must not
 * approve, confirm or forget anything.
 */
export function configDir(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SKILLSMITH_CONFIG_DIR) return env.SKILLSMITH_CONFIG_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Skillsmith');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Skillsmith');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'skillsmith');
}

/** Where a notice about a damaged per-user file goes (the CLI's stderr, the app's log). */
export type Notice = (line: string) => void;
export const stderrNotice: Notice = (line) => process.stderr.write(`${line}\n`);

/** A path as the per-user records key it: its real path, so two spellings of one project agree. */
export const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
};

/** The config folder, made owner-only: it holds what this user approved and confirmed. */
export function ensureConfigDir(env: Env = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A folder made earlier by something else keeps its mode; this one holds only ours.
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
  return dir;
}
