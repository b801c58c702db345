import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the app keeps its own small state (the recent-projects list):
 * SKILLSMITH_DATA_DIR when set (tests, portable use), else the platform's per-user
 * config folder. Electron is pointed at the same folder, so the desktop app and
 * `skillsmith serve` share one recent list.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.SKILLSMITH_DATA_DIR) return env.SKILLSMITH_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Skillsmith');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Skillsmith');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Skillsmith');
}
