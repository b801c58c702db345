/**
 * What a `write = true` run's changes may do to the project, decided over plain data. The
 * run writes into a staged copy of the project; main/services/sandbox/stage.ts snapshots
 * that copy before and after, and applies to the real project only what `decideWrites`
 * lets through, naming every path it refuses and why.
 */
import { protectedSegment } from './protected';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

/** One entry of a snapshot, from lstat (never following a symlink). */
export interface EntryStat {
  readonly kind: EntryKind;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  /** Permission bits (0o777 of st_mode). */
  readonly mode: number;
  /** A symlink's target, as written. */
  readonly target?: string;
}

/** '/'-separated path relative to the project root → its entry. */
export type Snapshot = ReadonlyMap<string, EntryStat>;

export type WriteChange = 'added' | 'changed' | 'deleted';

export interface StagedChange {
  readonly path: string;
  readonly change: WriteChange;
  readonly before?: EntryStat;
  readonly after?: EntryStat;
}

/** A change applied to the project; `diff` for a text file small enough to show. */
export interface AppliedWrite {
  readonly path: string;
  readonly change: WriteChange;
  readonly kind: EntryKind;
  readonly diff?: string;
}

export interface RefusedWrite {
  readonly path: string;
  readonly change: WriteChange;
  readonly reason: string;
}

/**
 * Every entry the run added, changed or deleted, parents before children. An entry counts
 * as changed when its kind, inode, size, times, mode or link target moved: a rewrite that
 * restores the mtime still moves the ctime, which the run cannot set. Folders are compared
 * only by kind and mode (their times move with every child).
 */
export function diffSnapshots(before: Snapshot, after: Snapshot): StagedChange[] {
  const out: StagedChange[] = [];
  for (const [path, a] of after) {
    const b = before.get(path);
    if (!b) out.push({ path, change: 'added', after: a });
    else if (moved(b, a)) out.push({ path, change: 'changed', before: b, after: a });
  }
  for (const [path, b] of before) if (!after.has(path)) out.push({ path, change: 'deleted', before: b });
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function moved(b: EntryStat, a: EntryStat): boolean {
  if (b.kind !== a.kind || b.mode !== a.mode) return true;
  if (a.kind === 'dir') return false;
  if (a.kind === 'symlink') return b.target !== a.target;
  return b.ino !== a.ino || b.size !== a.size || b.mtimeMs !== a.mtimeMs || b.ctimeMs !== a.ctimeMs;
}

export interface WriteRules {
  /** The project's absolute root: an absolute symlink target inside it is inside. */
  readonly root: string;
  /**
   * Protected paths below the root that carry no protected name: the git directory a
   * `.git` file names, `core.hooksPath` and `include.path` targets ('/'-separated, relative).
   */
  readonly protectedPaths: readonly string[];
}

/** Which changes are applied, and why each other one is not. Pure. */
export function decideWrites(
  changes: readonly StagedChange[],
  rules: WriteRules,
): { apply: StagedChange[]; refused: RefusedWrite[] } {
  const apply: StagedChange[] = [];
  const refused: RefusedWrite[] = [];
  for (const c of changes) {
    const reason = refusal(c, rules);
    if (reason === undefined) apply.push(c);
    else refused.push({ path: c.path, change: c.change, reason });
  }
  return { apply, refused };
}

const KIND_WORD: Readonly<Record<EntryKind, string>> = {
  file: 'file',
  dir: 'folder',
  symlink: 'symlink',
  other: 'special file',
};

function refusal(c: StagedChange, rules: WriteRules): string | undefined {
  const name = protectedSegment(c.path);
  if (name !== undefined) return `protected: ${name} holds code or settings another program runs or reads later`;
  const git = rules.protectedPaths.find((p) => c.path === p || c.path.startsWith(`${p}/`));
  if (git !== undefined) return `protected: ${git} is part of the git directory or its hooks`;
  if (c.change === 'deleted') {
    return c.before?.kind === 'file' || c.before?.kind === 'dir'
      ? undefined
      : 'only ordinary files and folders are deleted, never a symlink or special file';
  }
  const after = c.after!;
  if (after.kind === 'other') return 'not an ordinary file, folder or symlink (a FIFO, socket or device)';
  if (c.before && c.before.kind !== after.kind)
    return `a ${KIND_WORD[c.before.kind]} the run turned into a ${KIND_WORD[after.kind]}`;
  if (after.kind === 'symlink') return symlinkRefusal(c.path, after.target ?? '', rules.root);
  return undefined;
}

/**
 * A symlink is applied only when its target, resolved from its own folder without touching
 * the disk, stays inside the project and passes no protected name: a link to `.git/config`
 * would let a later write through it do what the run could not.
 */
function symlinkRefusal(path: string, target: string, root: string): string | undefined {
  const rel = resolveTarget(path, target, root);
  if (rel === undefined) return `a symlink pointing outside the project (${target})`;
  const name = protectedSegment(rel);
  if (name !== undefined) return `a symlink into ${name}, which is protected (${target})`;
  return undefined;
}

/** The link's target relative to the project root, or undefined when it leaves it. */
function resolveTarget(path: string, target: string, root: string): string | undefined {
  const rootParts = root.split('/').filter(Boolean);
  let parts: string[];
  if (target.startsWith('/')) {
    const abs = normalize(target.split('/'));
    if (abs === undefined || abs.length < rootParts.length) return undefined;
    if (rootParts.some((p, i) => abs[i] !== p)) return undefined;
    parts = abs.slice(rootParts.length);
  } else {
    const joined = normalize([...path.split('/').slice(0, -1), ...target.split('/')]);
    if (joined === undefined) return undefined;
    parts = joined;
  }
  return parts.join('/');
}

/** Segments with `.` and `..` folded; undefined when `..` climbs above the start. */
function normalize(segments: readonly string[]): string[] | undefined {
  const out: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(s);
  }
  return out;
}
