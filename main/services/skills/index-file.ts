import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import pkg from '../../../package.json';

/**
 * The one file behind a project's skill index: summaries of its installed skills and the
 * parsed kitbash.lock, so a command that needs a fact about the rest of the project does
 * not read and parse every skill to learn it. It lives in the user's cache folder, never
 * in the project (nothing there changes, git sees nothing, a read-only checkout works).
 *
 * The file is only ever a hint: it is replaced whole (temp file + rename, so a reader sees
 * the old or the new file, never half of one), a file that does not parse or does not
 * match this engine is ignored and rewritten, two commands saving at once lose at most
 * one's additions, and every entry is checked against the disk before it is used.
 */

/** Bumped whenever what an entry holds, or how it is derived, changes. */
const FORMAT = 1;
const ENGINE = `${pkg.version}/${FORMAT}`;
/** A bigger file is not ours to parse (the index of a 10,000-skill project is a few MB). */
const MAX_BYTES = 64 * 1024 * 1024;
/** Index files kept per cache folder; the least recently written go first. */
const MAX_FILES = 256;

/**
 * Where Skillsmith keeps caches: SKILLSMITH_CACHE_DIR when set (tests, portable use), else
 * the platform's per-user cache folder.
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SKILLSMITH_CACHE_DIR) return env.SKILLSMITH_CACHE_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'Skillsmith');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Skillsmith', 'Cache');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'skillsmith');
}

/** What the file holds. Entries are plain JSON; the readers check each one's shape. */
export interface IndexData {
  /** Installed folder name → its folder stamp and what was learnt from it. */
  skills: Record<string, { stamp: string; summary: unknown }>;
  /** The last kitbash.lock parsed, by the sha256 of its bytes. */
  lock?: { sha: string; entries: unknown };
  /** The one parsed before it: a command reads one lock and writes the next; a checkout may bring the first back. */
  previousLock?: { sha: string; entries: unknown };
  /** What the last compile plan read of the project, to fetch at once next time. */
  reads?: unknown;
}

export interface IndexFile {
  readonly data: IndexData;
  /** Write the data back (only call it when something changed); never throws. */
  save(): Promise<void>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The index file of the project at `root`; a missing, foreign or corrupt file gives an empty index. */
export async function openIndexFile(root: string, dir = join(cacheDir(), 'skill-index')): Promise<IndexFile> {
  let real: string;
  try {
    real = await realpath(root);
  } catch {
    real = root;
  }
  const file = join(dir, `${createHash('sha256').update(real).digest('hex').slice(0, 32)}.json`);
  const data = await readData(file, real);
  return {
    data,
    save: async () => {
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
        await writeFile(tmp, JSON.stringify({ engine: ENGINE, root: real, ...data }), { mode: 0o600 });
        await rename(tmp, file).catch(async (e: unknown) => {
          await rm(tmp, { force: true });
          throw e;
        });
        await prune(dir);
      } catch {
        // A cache that cannot be written only costs the next command its speed-up.
      }
    },
  };
}

async function readData(file: string, root: string): Promise<IndexData> {
  const empty: IndexData = { skills: {} };
  try {
    if ((await stat(file)).size > MAX_BYTES) return empty;
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isRecord(parsed) || parsed.engine !== ENGINE || parsed.root !== root || !isRecord(parsed.skills)) return empty;
    const skills: IndexData['skills'] = {};
    for (const [name, e] of Object.entries(parsed.skills))
      if (isRecord(e) && typeof e.stamp === 'string') skills[name] = { stamp: e.stamp, summary: e.summary };
    const lockAt = (v: unknown) =>
      isRecord(v) && typeof v.sha === 'string' ? { sha: v.sha, entries: v.entries } : undefined;
    const lock = lockAt(parsed.lock);
    const previousLock = lockAt(parsed.previousLock);
    return {
      skills,
      ...(lock ? { lock } : {}),
      ...(previousLock ? { previousLock } : {}),
      ...(parsed.reads !== undefined ? { reads: parsed.reads } : {}),
    };
  } catch {
    return empty;
  }
}

/** Keep the cache folder bounded: one file per project ever indexed would grow without end. */
async function prune(dir: string): Promise<void> {
  const all = await readdir(dir);
  // Temp files of a command killed between its write and its rename.
  const hourAgo = Date.now() - 3_600_000;
  for (const n of all.filter((x) => x.endsWith('.tmp')))
    if (
      (await stat(join(dir, n)).then(
        (s) => s.mtimeMs,
        () => Infinity,
      )) < hourAgo
    )
      await rm(join(dir, n), { force: true });
  const names = all.filter((n) => n.endsWith('.json'));
  if (names.length <= MAX_FILES) return;
  const aged = await Promise.all(
    names.map(async (n) => ({
      n,
      t: await stat(join(dir, n)).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    })),
  );
  aged.sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, aged.length - MAX_FILES)) await rm(join(dir, n), { force: true });
}
