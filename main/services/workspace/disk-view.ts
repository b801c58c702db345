import type { BigIntStats, Dirent } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ProjectFiles } from '../../../shared/targets/types';
import { readBytes, readdirEntries, statNs } from '../skills/fs-async';
import { mapLimit, READ_LANES } from '../skills/limit';
import type { PlanRead } from '../skills/project-index';
import { lstatOrUndefined, newestOf, nowNs, racyWindow, settled, stampOf } from '../fs/stamp';

/** Largest file read for the planner (the compile service's view reads no bigger one). */
const MAX_READ_BYTES = 16 * 1024 * 1024;
/** Planner passes before giving up on settling the answers (each pass fetches what the last one asked). */
const MAX_PASSES = 64;

type Kind = PlanRead;
type Listing = readonly { name: string; kind: 'file' | 'dir' | 'other' }[];

interface Answer {
  /** lstat and stat (through a symlink) stamps, when the path was looked at. */
  stamp?: { own: string; followed: string; newest: bigint; takenAt: bigint };
  exists?: boolean;
  executable?: boolean;
  bytes?: Uint8Array | undefined;
  text?: string | undefined;
  list?: Listing;
  listStamp?: { own: string; newest: bigint; takenAt: bigint };
}

/**
 * The project on disk as the pure planner's view — the same answers as the compile
 * service's `diskProject` — but with every file read through promises, so that planning
 * an install, update or remove never holds the main thread on the disk. The planner is
 * synchronous, so it is run in passes (`settle`): a question the view cannot answer yet
 * is noted and given a provisional answer; the noted paths are then fetched at once and
 * the planner run again, until a pass asks nothing new. Only that last pass's result is
 * used, and it was computed from real answers alone. (The planner's memo of emitted files
 * is keyed by each target's `emitFacts`, which name every path a target's emit reads, so a
 * provisional pass cannot leave a wrong entry behind.)
 *
 * Every answer keeps the stamp of the path it came from, so `unchanged()` can later tell —
 * from stamps alone — whether a plan made from this view still holds.
 */
export class AsyncDiskView implements ProjectFiles {
  readonly rootName: string;
  private readonly abs: string;
  private readonly answers = new Map<string, Answer>();
  private readonly wanted = new Map<string, Set<Kind>>();
  /** Paths (and what of them) the current pass used. */
  private used = new Map<string, Set<Kind>>();
  /** What the final pass of every `settle` so far used: what its results were computed from. */
  private readonly relied = new Map<string, Set<Kind>>();

  constructor(root: string) {
    this.abs = resolve(root);
    this.rootName = basename(this.abs);
  }

  exists(rel: string): boolean {
    const a = this.answer(rel, 'stat');
    return a?.exists ?? false;
  }

  isExecutable(rel: string): boolean {
    return this.answer(rel, 'stat')?.executable ?? false;
  }

  readBytes(rel: string): Uint8Array | undefined {
    const a = this.answer(rel, 'bytes');
    return a && 'bytes' in a ? a.bytes : undefined;
  }

  read(rel: string): string | undefined {
    const a = this.answer(rel, 'bytes');
    if (!a || !('bytes' in a)) return undefined;
    if (a.bytes === undefined) return undefined;
    if (a.text === undefined) {
      const b = a.bytes;
      a.text = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
    }
    return a.text;
  }

  list(dir: string): Listing {
    return this.answer(dir, 'list')?.list ?? [];
  }

  /**
   * Run the synchronous `compute` over this view until it asks nothing the view has not
   * fetched, and return that pass's result. A pass that throws while answers were still
   * missing is run again; one that throws with every answer in hand rethrows.
   */
  async settle<T>(compute: (view: ProjectFiles) => T): Promise<T> {
    for (let pass = 0; ; pass++) {
      this.wanted.clear();
      this.used = new Map();
      let result: { value: T } | { error: unknown };
      try {
        result = { value: compute(this) };
      } catch (error) {
        result = { error };
      }
      if (this.wanted.size === 0 || pass >= MAX_PASSES) {
        if ('error' in result) throw result.error;
        if (this.wanted.size) throw new Error('the project kept changing while it was being read — try again');
        for (const [rel, kinds] of this.used) {
          const r = this.relied.get(rel);
          if (r) for (const k of kinds) r.add(k);
          else this.relied.set(rel, new Set(kinds));
        }
        return result.value;
      }
      await this.fetch();
    }
  }

  /**
   * True when every path the results of `settle` were computed from still has the stamp it had then, and
   * every stamp had settled (see fs/stamp.ts): a plan made from these answers would
   * be made the same from the disk now.
   */
  async unchanged(): Promise<boolean> {
    const window = await racyWindow(this.abs);
    const entries = [...this.relied].map(([rel, kinds]) => [rel, kinds, this.answers.get(rel)] as const);
    const ok = await mapLimit(entries, READ_LANES * 4, async ([rel, kinds, a]) => {
      if (!a) return false;
      const p = this.path(rel);
      if (a.stamp && (kinds.has('stat') || kinds.has('bytes'))) {
        if (!settled(a.stamp.newest, a.stamp.takenAt, window)) return false;
        const { own, followed } = await stampsOf(p);
        if (own.stamp !== a.stamp.own || followed !== a.stamp.followed) return false;
      }
      if (a.listStamp && kinds.has('list')) {
        if (!settled(a.listStamp.newest, a.listStamp.takenAt, window)) return false;
        if (stampOf(await statNs(p)) !== a.listStamp.own) return false;
      }
      return true;
    });
    return ok.every(Boolean);
  }

  private path(rel: string): string {
    return rel === '' ? this.abs : join(this.abs, ...rel.split('/'));
  }

  private answer(rel: string, kind: Kind): Answer | undefined {
    let a = this.answers.get(rel);
    let have = a && (kind === 'stat' ? a.stamp : kind === 'bytes' ? 'bytes' in a : a.list);
    if (!have) {
      const absent = this.absentByListing(rel);
      if (absent) {
        a = absent;
        have = true;
        rel = parentOf(rel);
        kind = 'list';
      }
    }
    let u = this.used.get(rel);
    if (!u) this.used.set(rel, (u = new Set()));
    u.add(kind);
    if (have) return a;
    let w = this.wanted.get(rel);
    if (!w) this.wanted.set(rel, (w = new Set()));
    w.add(kind);
    return undefined;
  }

  /**
   * A path whose folder was listed, and is not in the listing, is absent: answered without
   * asking the disk (the folder's stamp then vouches for it). Names are compared loosely
   * (case and Unicode form), so a case-insensitive file system never gets a wrong "absent".
   */
  private absentByListing(rel: string): Answer | undefined {
    if (rel === '') return undefined;
    const list = this.answers.get(parentOf(rel))?.list;
    if (!list) return undefined;
    const name = loose(rel.slice(rel.lastIndexOf('/') + 1));
    if (list.some((e) => loose(e.name) === name)) return undefined;
    return ABSENT;
  }

  /** Fetch `paths` before planning (what the last plan of this project read), all at once. */
  async prefetch(paths: readonly (readonly [string, readonly Kind[]])[]): Promise<void> {
    this.wanted.clear();
    for (const [rel, kinds] of paths) this.wanted.set(rel, new Set(kinds));
    await this.fetch();
    this.wanted.clear();
  }

  /** What every `settle` so far read, to prefetch next time. */
  readSet(): [string, Kind[]][] {
    return [...this.relied].map(([rel, kinds]) => [rel, [...kinds]]);
  }

  private async fetch(): Promise<void> {
    const todo = [...this.wanted];
    await mapLimit(todo, READ_LANES * 2, async ([rel, kinds]) => {
      const a = this.answers.get(rel) ?? {};
      const p = this.path(rel);
      const takenAt = nowNs();
      if (!a.stamp) {
        const { own, followed, followedStats } = await stampsOf(p);
        a.stamp = {
          own: own.stamp,
          followed,
          newest: newestOf(own.stats) > newestOf(followedStats) ? newestOf(own.stats) : newestOf(followedStats),
          takenAt,
        };
        a.exists = followedStats !== undefined;
        a.executable = own.stats ? (Number(own.stats.mode) & 0o111) !== 0 : false;
        if (kinds.has('bytes')) {
          const st = own.stats;
          a.bytes =
            st?.isFile() && st.size <= BigInt(MAX_READ_BYTES) ? await readBytes(p).catch(() => undefined) : undefined;
        }
      } else if (kinds.has('bytes') && !('bytes' in a)) {
        // Stamped by an earlier pass; the stamp it keeps was taken before these bytes were read.
        const st = await lstatOrUndefined(p);
        if (stampOf(st) !== a.stamp.own) a.stamp = { ...a.stamp, own: '(changed while read)' };
        a.bytes =
          st?.isFile() && st.size <= BigInt(MAX_READ_BYTES) ? await readBytes(p).catch(() => undefined) : undefined;
      }
      if (kinds.has('list') && !a.list) {
        const dirSt = await statNs(p);
        a.listStamp = { own: stampOf(dirSt), newest: newestOf(dirSt), takenAt };
        let dirents: Dirent[] = [];
        try {
          dirents = await readdirEntries(p);
        } catch {
          dirents = [];
        }
        a.list = dirents.map((d) => ({
          name: d.name,
          kind: d.isFile() ? ('file' as const) : d.isDirectory() ? ('dir' as const) : ('other' as const),
        }));
      }
      this.answers.set(rel, a);
    });
  }
}

const parentOf = (rel: string): string => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
const loose = (name: string): string => name.normalize('NFC').toLowerCase();
const ABSENT: Answer = { exists: false, executable: false, bytes: undefined, list: [] };

async function stampsOf(
  p: string,
): Promise<{ own: { stamp: string; stats: BigIntStats | undefined }; followed: string; followedStats?: BigIntStats }> {
  const own = await lstatOrUndefined(p);
  const followedStats = own?.isSymbolicLink() ? await statNs(p) : own;
  return {
    own: { stamp: stampOf(own), stats: own },
    followed: stampOf(followedStats),
    ...(followedStats ? { followedStats } : {}),
  };
}
