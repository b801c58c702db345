import type { LockEntry } from '../../../shared/lock/lockfile';
import { createHash } from 'node:crypto';
import { formatError, type Result } from '../../../shared/result';
import { parsedFormOf, readLockAsync, readLockAsyncOrThrow, type LockState, type ParsedLockCache } from '../lock';
import { loadFolderAsync } from './folder';
import { openIndexFile, type IndexFile } from './index-file';
import { mapLimit, READ_LANES } from './limit';
import { installedSkillsAsync, type SkillLocation } from './locate';
import { folderStamp, nowNs, racyWindow, settled } from '../fs/stamp';

/** What the compile planner asked of a path: whether it is there, its bytes, its entries. */
export type PlanRead = 'stat' | 'bytes' | 'list';
const MAX_PLAN_READS = 200_000;

/** What the rest of a project's commands need to know about one installed skill without loading it. */
export interface SkillSummary {
  readonly name: string;
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
}

/** One installed folder: its summary, or the one-line reason it does not load. */
export type InstalledSummary =
  | { readonly loc: SkillLocation & { kind: 'folder' }; readonly ok: true; readonly summary: SkillSummary }
  | { readonly loc: SkillLocation & { kind: 'folder' }; readonly ok: false; readonly message: string };

/**
 * A project's skill index: the summary of every installed skill and the parsed lock,
 * updated from what changed rather than rebuilt. A skill's entry is used only while its
 * folder stamp (every entry's size, mode, inode and timestamps) is what it was when the
 * entry was made, and an entry is only made from a stamp that had settled (see stamp.ts),
 * so a hand edit — however small, however soon — is always read again. The lock is
 * remembered by the hash of its bytes.
 */
export class ProjectIndex {
  private dirty = false;

  private constructor(
    readonly root: string,
    private readonly file: IndexFile,
  ) {}

  static async open(root: string): Promise<ProjectIndex> {
    return new ProjectIndex(root, await openIndexFile(root));
  }

  /** kitbash.lock, parsed only when its bytes are new to the index; a bad lock throws its one-line message. */
  lock(): Promise<LockState> {
    return readLockAsyncOrThrow(this.root, this.lockCache);
  }

  /** kitbash.lock as `lock()` reads it, a bad lock as its error. */
  lockResult(): Promise<Result<LockState>> {
    return readLockAsync(this.root, this.lockCache);
  }

  /** Every installed skill folder (broken entries left out), in name order, with its summary. */
  async summaries(): Promise<InstalledSummary[]> {
    const takenAt = nowNs();
    const window = await racyWindow(this.root);
    const folders = (await installedSkillsAsync(this.root)).filter(
      (l): l is SkillLocation & { kind: 'folder' } => l.kind === 'folder',
    );
    const known = this.file.data.skills;
    const out = await mapLimit(folders, READ_LANES, async (loc): Promise<InstalledSummary> => {
      const stamp = await folderStamp(loc.abs);
      const hit = stamp ? known[loc.nameHint] : undefined;
      if (hit && hit.stamp === stamp!.digest) {
        const s = summaryShape(hit.summary);
        if (s) return 'message' in s ? { loc, ok: false, message: s.message } : { loc, ok: true, summary: s };
      }
      const loaded = await loadFolderAsync(loc.abs, loc.display, loc.nameHint);
      const entry: InstalledSummary = loaded.ok
        ? {
            loc,
            ok: true,
            summary: {
              name: loaded.value.manifest.skill.name,
              version: loaded.value.manifest.skill.version,
              dependencies: { ...loaded.value.manifest.dependencies },
            },
          }
        : { loc, ok: false, message: formatError(loaded.error) };
      if (stamp && settled(stamp.newest, takenAt, window)) {
        known[loc.nameHint] = { stamp: stamp.digest, summary: entry.ok ? entry.summary : { message: entry.message } };
        this.dirty = true;
      } else if (hit) {
        delete known[loc.nameHint];
        this.dirty = true;
      }
      return entry;
    });
    const present = new Set(folders.map((f) => f.nameHint));
    for (const name of Object.keys(known)) {
      if (present.has(name)) continue;
      delete known[name];
      this.dirty = true;
    }
    return out;
  }

  /** Remember the lock a command just wrote (`text`, from `entries`), so the next one need not parse it. */
  learnLock(text: string, entries: readonly LockEntry[]): void {
    const parsed = parsedFormOf(entries);
    if (parsed) this.lockCache.put(createHash('sha256').update(text, 'utf8').digest('hex'), parsed);
  }

  /** The paths the last compile plan of this project read, with what of each (a hint; every answer is fetched). */
  planReads(): [string, PlanRead[]][] {
    const r = this.file.data.reads;
    if (!Array.isArray(r)) return [];
    return r.filter(
      (x): x is [string, PlanRead[]] =>
        Array.isArray(x) &&
        typeof x[0] === 'string' &&
        Array.isArray(x[1]) &&
        (x[1] as unknown[]).every((k) => k === 'stat' || k === 'bytes' || k === 'list'),
    );
  }

  rememberPlanReads(reads: [string, PlanRead[]][]): void {
    if (reads.length > MAX_PLAN_READS) return;
    this.file.data.reads = reads;
    this.dirty = true;
  }

  /** Write what changed back to the cache (never throws). */
  async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    await this.file.save();
  }

  private readonly lockCache: ParsedLockCache = {
    get: (sha) => {
      for (const l of [this.file.data.lock, this.file.data.previousLock])
        if (l && l.sha === sha && Array.isArray(l.entries) && l.entries.every(isLockEntry))
          return l.entries as LockEntry[];
      return undefined;
    },
    put: (sha, entries) => {
      // Plain strings, string lists and a boolean read back exactly; an entry with anything else is not kept.
      if (!entries.every(isLockEntry)) return;
      const last = this.file.data.lock;
      if (last && last.sha !== sha) this.file.data.previousLock = last;
      this.file.data.lock = { sha, entries };
      this.dirty = true;
    },
  };
}

/** Run `fn` with the project's index, saving it afterwards whatever `fn` did. */
export async function withProjectIndex<T>(root: string, fn: (index: ProjectIndex) => Promise<T>): Promise<T> {
  const index = await ProjectIndex.open(root);
  try {
    return await fn(index);
  } finally {
    await index.save();
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A summary read back from the cache, or undefined when it is not one this engine wrote. */
function summaryShape(v: unknown): SkillSummary | { message: string } | undefined {
  if (!isRecord(v)) return undefined;
  if (typeof v.message === 'string' && Object.keys(v).length === 1) return { message: v.message };
  const deps = v.dependencies;
  if (
    typeof v.name !== 'string' ||
    typeof v.version !== 'string' ||
    !isRecord(deps) ||
    !Object.values(deps).every((r) => typeof r === 'string')
  )
    return undefined;
  return { name: v.name, version: v.version, dependencies: deps as Record<string, string> };
}

const strings = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');

const LOCK_KEYS = new Set([
  'name',
  'version',
  'source',
  'integrity',
  'resolved',
  'commit',
  'dependencies',
  'requested',
  'direct',
  'executable',
]);

/** A pin of exactly the lock's shape: plain, its keys and their types only (so it reads back from JSON as it was). */
function isLockEntry(v: unknown): v is LockEntry {
  if (!isRecord(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
  if (!Object.keys(v).every((k) => LOCK_KEYS.has(k))) return false;
  for (const k of ['name', 'version', 'source', 'integrity']) if (typeof v[k] !== 'string') return false;
  for (const k of ['resolved', 'commit']) if (k in v && typeof v[k] !== 'string') return false;
  for (const k of ['dependencies', 'requested', 'executable']) if (k in v && !strings(v[k])) return false;
  return !('direct' in v) || typeof v.direct === 'boolean';
}
