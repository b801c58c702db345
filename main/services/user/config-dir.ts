import { chmodSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../fs/atomic';

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

/**
 * One per-user record file: `{ format, version, [field]: { key: record } }`. `format` and
 * `field` name the file's kind; a record `valid` rejects is dropped alone.
 */
export interface UserRecords<T> {
  readonly file: string;
  readonly format: string;
  readonly version: number;
  readonly field: string;
  valid(key: string, record: T): boolean;
  /** The line said when the file is damaged or foreign: then no record counts. */
  damaged(path: string): string;
}

/** A record confirmed for one project: keyed by the project's real path and the record's id. */
export interface ProjectRecord {
  readonly project: string;
  readonly id: string;
}

/** The key of a project record in its file. */
export const projectRecordKey = (project: string, id: string): string => `${project}\0${id}`;

/** A project record stored under its own key (anything else in the file is dropped). */
export function isProjectRecord(key: string, r: Partial<ProjectRecord> | undefined): boolean {
  return typeof r?.project === 'string' && typeof r.id === 'string' && key === projectRecordKey(r.project, r.id);
}

/** What a confirmation records and reads with: where the user's folder is, how a damaged file is said, the time. */
export interface RecordOptions {
  readonly env?: Env;
  readonly notice?: Notice;
  readonly now?: Date;
}

/** The records of `kind` in `dir`; none (and `notice` told, unless `quiet`) when the file is damaged. */
export function readUserRecords<T>(
  dir: string,
  kind: UserRecords<T>,
  notice: Notice,
  quiet = false,
): Record<string, T> {
  const path = join(dir, kind.file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const records = j[kind.field];
    if (j.format === kind.format && j.version === kind.version && records && typeof records === 'object')
      return Object.fromEntries(Object.entries(records as Record<string, T>).filter(([k, r]) => kind.valid(k, r)));
  } catch {
    // reported below, as a foreign format is
  }
  if (!quiet) notice(kind.damaged(path));
  return {};
}

/** Write the records of `kind` (the file owner-only, atomically, in an owner-only folder). */
export function writeUserRecords<T>(dir: string, kind: UserRecords<T>, records: Record<string, T>): void {
  const body = { format: kind.format, version: kind.version, [kind.field]: records };
  writeFileAtomic(join(dir, kind.file), JSON.stringify(body, null, 2) + '\n', { mode: 0o600 });
}
