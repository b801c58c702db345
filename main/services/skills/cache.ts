import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pkg from '../../../package.json';
import type { SkillReport } from '../../../shared/lint/report/model';
import { LIMITS, type SkillTree } from '../../../shared/ksf/tree';
import { isReport } from '../../../shared/lint/report/valid';
import { bundledEntry } from '../bundled';
import { describeFsError } from '../fs/describe-error';
import { writeFileAtomic } from '../fs/atomic';
import type { CheckOptions } from './lint';
import type { SkillLocation } from './locate';
import { listedStampSync, racyWindowMsSync, restampSync } from '../fs/stamp';

/*
 * The lint cache (SPEC.md D131): a skill's report, keyed by a SHA-256 of everything the
 * report is a function of — every byte, path, kind and execute bit of the skill folder as
 * read, where it is shown, the options, and the engine that judged it. A changed byte, a
 * new build or other options is another key, so nothing is ever invalidated by hand.
 *
 * One file per project under the user's cache folder, never inside the project: a project
 * (a cloned repository) can then not ship verdicts of its own. Each entry carries a check
 * hash over its key and text, so a torn, truncated or edited entry is dropped and its skill
 * linted again; an unreadable file is ignored with a one-line notice and rewritten. Writes
 * are atomic (temp file, then rename), so two lints at once never tear the file: the last
 * one to finish wins, and each reports only what it read or linted itself.
 *
 * An entry may also carry the stamp of the folder it was read from (D132: every entry's
 * size, mode, inode and both times, as the install index takes it, stamp.ts), recorded only
 * when that stamp had settled. A later lint that finds the folder with the very same stamp
 * reuses the key without reading or hashing a byte; any other stamp is read and hashed.
 */

const FORMAT = 'skillsmith-lint-cache';
const FORMAT_VERSION = 1;
/** A cache file larger than this is not read (it is rebuilt). */
const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Entries kept per project file; the ones of skills checked last are kept first. */
const MAX_ENTRIES = 20_000;
const KEY = /^[0-9a-f]{64}$/;
/** Temp files older than this are a killed writer's leftovers. */
const STALE_TEMP_MS = 60 * 60 * 1000;

interface Entry {
  /** The skill folder as shown, to tell which entries a later lint of that folder replaces. */
  readonly p: string;
  /** The report, as JSON text (parsed only on a hit). */
  readonly r: string;
  /** SHA-256 of key, path, text and stamp: an entry that does not match it is not used. */
  readonly c: string;
  /** The stamp key (stampKey()) of the folder as it was when its bytes were read, once settled. */
  readonly s?: string;
  /** The paths that stamp covers (ListedStamp.paths), to take it again without listing. */
  readonly n?: readonly string[];
}

/** A settled folder stamp to record with a report: its stamp key and the paths it covers. */
export interface StampRecord {
  readonly s: string;
  readonly n: readonly string[];
}

/** A recorded stamp and the report key it stands for. */
export interface StampedKey extends StampRecord {
  readonly key: string;
}

interface CacheFile {
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly engine: string;
  readonly entries: Record<string, Entry>;
}

/**
 * The user's cache folder for Skillsmith: SKILLSMITH_CACHE_DIR when set, else the platform's
 * per-user cache location (XDG on Linux, ~/Library/Caches, %LOCALAPPDATA%).
 */
export function defaultCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.SKILLSMITH_CACHE_DIR) return env.SKILLSMITH_CACHE_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'Skillsmith');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Skillsmith', 'Cache');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'skillsmith');
}

/**
 * Which build is judging: the version and every file of the built bundle (name, size, time).
 * Any rebuild is a new engine. Undefined when running from sources (tests), where there is
 * no build to name, so nothing is cached unless a caller names an engine itself.
 */
export function engineStamp(): string | undefined {
  const worker = bundledEntry('lint-worker.js');
  if (!worker) return undefined;
  const h = createHash('sha256').update(`${pkg.version}\0`);
  try {
    for (const dir of [dirname(worker), join(dirname(worker), 'chunks')]) {
      for (const name of readdirSync(dir).sort()) {
        const st = statSync(join(dir, name), { throwIfNoEntry: false });
        if (st?.isFile()) h.update(`${name}\0${st.size}\0${st.mtimeMs}\0`);
      }
    }
  } catch {
    // A bundle that cannot be listed (an archive the runtime cannot read as folders) is not
    // one to key reports by: lint without the cache.
    return undefined;
  }
  return h.digest('hex').slice(0, 32);
}

/** The cache key of one skill folder as read: SHA-256 over everything its report depends on. */
export function reportKey(engine: string, location: SkillLocation, options: CheckOptions, tree: SkillTree): string {
  const h = createHash('sha256');
  // NUL cannot occur in a path or a link target, so these fields cannot run into each other.
  let head = `${FORMAT}\0${engine}\0${options.schema ? 1 : 0}${options.evals ? 1 : 0}\0`;
  head += `${location.display}\0${location.nameHint}\0${tree.root}\0`;
  for (const e of tree.entries) {
    if (e.kind === 'dir') head += `d\0${e.path}\0`;
    else if (e.kind === 'symlink') head += `l\0${e.path}\0${e.target}\0`;
    else {
      h.update(`${head}f\0${e.path}\0${e.executable ? 1 : 0}\0${e.bytes.length}\0`);
      h.update(e.bytes);
      head = '';
    }
  }
  return h.update(head).digest('hex');
}

function entryCheck(key: string, path: string, text: string, stamp?: StampRecord): string {
  // Without a stamp, the check of format 1 as first written, so those files stay valid.
  const tail = stamp === undefined ? '' : `\0${stamp.s}\0${stamp.n.join('\0')}`;
  return createHash('sha256').update(`${key}\0${path}\0${text}${tail}`).digest('hex');
}

/**
 * What a folder's stamp stands for in the cache: the folder's stamp digest with everything
 * else its report key holds apart from the bytes (engine, options, where it is shown and
 * read from). Equal stamp keys mean an equal report key, while the stamp had settled.
 */
export function stampKey(engine: string, location: SkillLocation, options: CheckOptions, digest: string): string {
  const opts = `${options.schema ? 1 : 0}${options.evals ? 1 : 0}`;
  return createHash('sha256')
    .update(`${FORMAT}-stamp\0${engine}\0${opts}\0${location.abs}\0${location.display}\0${location.nameHint}\0`)
    .update(digest)
    .digest('hex');
}

/**
 * Stamp a skill folder before its bytes are read (D132), listing it: a write after this
 * moves a ctime past the stamp, so a stamp never stands for bytes older than it. The record
 * is returned only if the stamp had settled (nothing in it changed within the file system's
 * racy window of taking it); undefined otherwise, or when the folder cannot be walked.
 */
export function stampFolder(engine: string, location: SkillLocation, options: CheckOptions): StampRecord | undefined {
  const takenAt = Date.now();
  const stamp = listedStampSync(location.abs, LIMITS.maxEntries);
  if (!stamp || !(stamp.newestMs < takenAt - racyWindowMsSync(location.abs, stamp.dev))) return undefined;
  return { s: stampKey(engine, location, options, stamp.digest), n: stamp.paths };
}

/**
 * The report key of a folder whose stamp, taken again now over the recorded paths without
 * listing anything, is one recorded for it; undefined when none is.
 */
export function keyFromStamps(
  recorded: readonly StampedKey[] | undefined,
  engine: string,
  location: SkillLocation,
  options: CheckOptions,
): string | undefined {
  if (!recorded) return undefined;
  const digests = new Map<string, string | undefined>();
  for (const r of recorded) {
    const list = r.n.join('\0');
    if (!digests.has(list)) digests.set(list, restampSync(location.abs, r.n));
    const digest = digests.get(list);
    if (digest !== undefined && stampKey(engine, location, options, digest) === r.s) return r.key;
  }
  return undefined;
}

/**
 * The lint cache of the project at `root` in the user's cache folder, or undefined when
 * there is no build to key it by (running from sources).
 */
export function openLintCache(root: string, notice: (message: string) => void): LintCache | undefined {
  const engine = engineStamp();
  return engine === undefined ? undefined : LintCache.open(root, { dir: defaultCacheDir(), engine }, notice);
}

export interface CacheLocation {
  /** The cache folder (defaultCacheDir()). */
  readonly dir: string;
  /** The engine stamp (engineStamp()). */
  readonly engine: string;
}

/** The reports cached for one project, loaded once, saved once after a lint. */
export class LintCache {
  private readonly entries: Map<string, Entry>;
  private readonly fresh = new Map<string, Entry>();
  /** Folder as shown → its recorded stamps, from the entries as read (verified by get() on use). */
  private readonly stamps = new Map<string, StampedKey[]>();
  private dirty = false;
  private damageNoticed = false;

  private constructor(
    readonly file: string,
    readonly engine: string,
    entries: Map<string, Entry>,
    private readonly notice: (message: string) => void,
  ) {
    this.entries = entries;
  }

  /**
   * The cache of the project at `root`. A missing file is an empty cache; an unreadable,
   * foreign or corrupt one is reported through `notice` (one line) and treated as empty.
   */
  static open(root: string, where: CacheLocation, notice: (message: string) => void): LintCache {
    const name = createHash('sha256').update(resolve(root)).digest('hex').slice(0, 32);
    const file = join(where.dir, 'lint', `${name}.json`);
    const read = readCacheFile(file);
    if (read.problem) notice(`ignoring the lint cache ${file}: ${read.problem} — it will be rebuilt`);
    const entries = new Map<string, Entry>();
    const cache = new LintCache(file, where.engine, entries, notice);
    if (read.file && read.file.engine === where.engine) {
      // Only keys this cache writes (SHA-256 in hex): nothing else can ever be asked for.
      for (const [key, e] of Object.entries(read.file.entries)) {
        if (!KEY.test(key)) continue;
        entries.set(key, e);
        const { p, s, n } = (e ?? {}) as Partial<Entry>;
        if (typeof p !== 'string' || typeof s !== 'string' || !KEY.test(s) || !Array.isArray(n)) continue;
        if (!n.every((x) => typeof x === 'string')) continue;
        const list = cache.stamps.get(p);
        if (list) list.push({ s, n, key });
        else cache.stamps.set(p, [{ s, n, key }]);
      }
    } else if (read.problem) cache.dirty = true;
    return cache;
  }

  /** How many reports the file held for this engine. */
  get size(): number {
    return this.entries.size;
  }

  /** The keys with an entry (not yet verified: get() does that). */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The stamps recorded for a folder as shown (each entry is verified by get() when used). */
  stampsOf(display: string): readonly StampedKey[] | undefined {
    return this.stamps.get(display);
  }

  /** Every recorded stamp by folder, for helper threads. */
  allStamps(): [string, StampedKey[]][] {
    return [...this.stamps];
  }

  /** The cached report, when the entry is intact; a damaged one is dropped (and reported once). */
  get(key: string): SkillReport | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    let report: unknown;
    try {
      if (
        typeof e.r !== 'string' ||
        typeof e.p !== 'string' ||
        e.c !== entryCheck(key, e.p, e.r, e.s === undefined ? undefined : { s: e.s, n: e.n! })
      )
        throw new Error('check hash');
      report = JSON.parse(e.r);
    } catch {
      report = undefined;
    }
    if (isReport(report) && report.path === e.p) return report;
    this.entries.delete(key);
    const list = this.stamps.get(e.p);
    if (list)
      this.stamps.set(
        e.p,
        list.filter((r) => r.key !== key),
      );
    if (!this.damageNoticed)
      this.notice(`ignoring a damaged entry of the lint cache ${this.file} — that skill is linted again`);
    this.damageNoticed = true;
    this.dirty = true;
    return undefined;
  }

  /** Store a report; `stamp` is the settled stamp key of the folder it was read from, if any. */
  put(key: string, report: SkillReport, stamp?: StampRecord): void {
    if (!isReport(report)) return;
    const r = JSON.stringify(report);
    const c = entryCheck(key, report.path, r, stamp);
    this.fresh.set(key, stamp === undefined ? { p: report.path, r, c } : { p: report.path, r, c, ...stamp });
    this.dirty = true;
  }

  /**
   * Record a settled stamp for an entry found by its key (the folder's times moved, its bytes
   * did not), so the next lint need not read it. Only after get() has verified the entry.
   */
  restamp(key: string, stamp: StampRecord): void {
    const e = this.entries.get(key);
    if (!e || e.s === stamp.s) return;
    this.fresh.set(key, { p: e.p, r: e.r, c: entryCheck(key, e.p, e.r, stamp), ...stamp });
    this.dirty = true;
  }

  /**
   * Writes the file when anything changed. The entries of this lint come first; an older
   * entry of a folder linted now (a previous version of it) is dropped. Never throws: a
   * cache that cannot be written only costs the next lint its speed.
   */
  save(): void {
    if (!this.dirty) return;
    const linted = new Set([...this.fresh.values()].map((e) => e.p));
    const entries: Record<string, Entry> = {};
    let n = 0;
    for (const [key, e] of this.fresh) if (n++ < MAX_ENTRIES) entries[key] = e;
    for (const [key, e] of this.entries) {
      if (n >= MAX_ENTRIES) break;
      if (this.fresh.has(key) || linted.has(e.p)) continue;
      entries[key] = e;
      n++;
    }
    const body: CacheFile = { format: FORMAT, version: FORMAT_VERSION, engine: this.engine, entries };
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      sweepTemps(dirname(this.file));
      writeFileAtomic(this.file, JSON.stringify(body));
      this.dirty = false;
    } catch (e) {
      this.notice(`cannot write the lint cache ${this.file}: ${describeFsError(e)}`);
    }
  }
}

function readCacheFile(file: string): { file?: CacheFile; problem?: string } {
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size > MAX_FILE_BYTES) return { problem: `larger than ${MAX_FILE_BYTES} bytes` };
      const buf = Buffer.allocUnsafe(size);
      let off = 0;
      for (let n = -1; off < size && n !== 0; off += n) n = readSync(fd, buf, off, size - off, off);
      text = buf.toString('utf8', 0, off);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: describeFsError(e) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'not valid JSON (truncated or overwritten?)' };
  }
  const f = parsed as Partial<CacheFile> | null;
  if (
    typeof f !== 'object' ||
    f === null ||
    f.format !== FORMAT ||
    f.version !== FORMAT_VERSION ||
    typeof f.engine !== 'string' ||
    typeof f.entries !== 'object' ||
    f.entries === null ||
    Array.isArray(f.entries)
  )
    return { problem: 'not a Skillsmith lint cache of this version' };
  return { file: f as CacheFile };
}

function sweepTemps(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('.') || !name.endsWith('.tmp')) continue;
    const st = statSync(join(dir, name), { throwIfNoEntry: false });
    if (st && now - st.mtimeMs > STALE_TEMP_MS) rmSync(join(dir, name), { force: true });
  }
}
