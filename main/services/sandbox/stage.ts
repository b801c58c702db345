import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { isCoded } from '../../../shared/result';
import { isProtectedName, protectedSegment } from '../../../shared/sandbox/protected';
import {
  decideWrites,
  diffSnapshots,
  type AppliedWrite,
  type EntryStat,
  type RefusedWrite,
  type Snapshot,
  type StagedChange,
} from '../../../shared/sandbox/writes';
import { unifiedDiff } from '../../../shared/text/diff';
import { lstatIfPresent } from '../fs/probe';
import { readFileIn, replaceFileIn, tempName, withProjectDir, type ProjectDir } from '../fs/inside';
import { capture } from './process';
import { gitProtectedPaths } from './protect';

/** A `write = true` run's staged copy of the project. */
export interface Stage {
  /** The copy, bound over the project's path in the run (bwrap) or its working folder (sandbox-exec). */
  readonly dir: string;
  /**
   * The project's protected top-level folders and files: empty stand-ins in the copy, the
   * real ones bound read-only over them in the run.
   */
  readonly bound: readonly string[];
  readonly before: Snapshot;
}

/** What applying a run's staged changes did. */
export interface WriteOutcome {
  readonly applied: readonly AppliedWrite[];
  readonly refused: readonly RefusedWrite[];
}

const DIFF_FILE_LIMIT = 256 * 1024;
const DIFF_TOTAL_LIMIT = 512 * 1024;

/**
 * Copy the project into `dir` for a run to write into. The protected top-level entries are
 * not copied (a `.git` can be the project's biggest folder): each gets an empty stand-in
 * that the run sees the real entry through, read-only. `cp -a` keeps modes, times, symlinks
 * as symlinks and hard links among the copied files; `--reflink=auto` shares blocks where
 * the file system can. Throws with cp's first line when the copy fails.
 */
export async function stageProject(workspace: string, dir: string): Promise<Stage> {
  mkdirSync(dir, { mode: 0o700 });
  const sources: string[] = [];
  const bound: string[] = [];
  for (const name of readdirSync(workspace).sort()) {
    const abs = join(workspace, name);
    const st = lstatSync(abs);
    if (isProtectedName(name) && (st.isDirectory() || st.isFile())) {
      if (st.isDirectory()) mkdirSync(join(dir, name));
      else writeFileSync(join(dir, name), '');
      bound.push(abs);
    } else if (st.isDirectory() || st.isFile() || st.isSymbolicLink()) sources.push(abs);
  }
  if (sources.length > 0) {
    const reflink = process.platform === 'linux' ? ['--reflink=auto'] : [];
    const cp = await capture('cp', ['-a', ...reflink, '--', ...sources, `${dir}/`], {
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 600_000,
    });
    if (cp.code !== 0)
      throw new Error(
        `could not stage a copy of the project for the run to write into: ${cp.stderr.split('\n')[0] || cp.spawnError?.message || `cp exited ${String(cp.code)}`}`,
      );
  }
  return { dir, bound, before: snapshot(dir) };
}

/** Every entry under `dir`, by lstat; symlinks are recorded, never followed. */
export function snapshot(dir: string): Snapshot {
  const out = new Map<string, EntryStat>();
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs)) {
      const childAbs = join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const st = lstatSync(childAbs);
      out.set(childRel, entryOf(st, childAbs));
      if (st.isDirectory()) walk(childAbs, childRel);
    }
  };
  walk(dir, '');
  return out;
}

function entryOf(st: Stats, abs: string): EntryStat {
  const kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : st.isSymbolicLink() ? 'symlink' : 'other';
  return {
    kind,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    ino: st.ino,
    mode: st.mode & 0o777,
    ...(kind === 'symlink' ? { target: readlinkOf(abs) } : {}),
  };
}

function readlinkOf(abs: string): string {
  try {
    return readlinkSync(abs);
  } catch {
    return '';
  }
}

/**
 * Apply what the run changed in its copy to the project, by the rules of `decideWrites`.
 * Folders and files first, parents before children; deletions last, children first. Every
 * file is written as a new file renamed into place through a folder opened inside the
 * project (a hard link in the copy becomes its own file; an existing file hard-linked
 * elsewhere is replaced, never written through); an entry the user changed in the project
 * while the run ran is left alone and named.
 */
export function applyStage(workspace: string, stage: Stage): WriteOutcome {
  const realRoot = realpathSync(workspace);
  const gitPaths = gitProtectedPaths(workspace)
    .map((p) => relative(workspace, p))
    .filter((r) => r !== '' && !r.startsWith('..') && !isAbsolute(r))
    .map((r) => r.split(sep).join('/'));
  const { apply, refused } = decideWrites(diffSnapshots(stage.before, snapshot(stage.dir)), {
    root: realRoot,
    protectedPaths: gitPaths,
  });
  const out: RefusedWrite[] = [...refused];
  const applied: AppliedWrite[] = [];
  let diffBudget = DIFF_TOTAL_LIMIT;
  const upserts = apply.filter((c) => c.change !== 'deleted');
  const deletions = apply.filter((c) => c.change === 'deleted').reverse();
  for (const c of [...upserts, ...deletions]) {
    try {
      const conflict = conflictOf(join(workspace, c.path), c);
      if (conflict) {
        out.push({ path: c.path, change: c.change, reason: conflict });
        continue;
      }
      const slash = c.path.lastIndexOf('/');
      const parent = slash < 0 ? '' : c.path.slice(0, slash);
      const name = c.path.slice(slash + 1);
      const done = withProjectDir(workspace, parent, { create: c.change !== 'deleted' }, (d) => {
        const lands = landsProtected(realRoot, d, gitPaths);
        if (lands) throw new Refused(`its folder leads into ${lands} through a symlink`);
        return applyOne(d, name, c, join(stage.dir, c.path), diffBudget);
      });
      if (done === 'unchanged') continue;
      const diff = done.diff;
      diffBudget -= diff?.length ?? 0;
      applied.push({ path: c.path, change: c.change, kind: (c.after ?? c.before)!.kind, ...(diff ? { diff } : {}) });
    } catch (e) {
      const reason =
        e instanceof Refused || isCoded(e)
          ? (e as Error).message
          : `could not be applied (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
      out.push({ path: c.path, change: c.change, reason });
    }
  }
  return { applied, refused: out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

class Refused extends Error {}

/** Whether the project's entry is still what the copy started from. */
function conflictOf(real: string, c: StagedChange): string | undefined {
  const st = lstatIfPresent(real);
  if (c.change === 'added') {
    if (!st) return undefined;
    return st.isDirectory() && c.after?.kind === 'dir' ? undefined : 'created in the project while the run ran';
  }
  const b = c.before!;
  const same =
    st !== undefined &&
    entryOf(st, real).kind === b.kind &&
    (b.kind !== 'file' || (st.size === b.size && st.mtimeMs === b.mtimeMs));
  return same ? undefined : 'changed in the project while the run ran';
}

/** The protected name or git path the opened folder really lies in, if any. */
function landsProtected(realRoot: string, d: ProjectDir, gitPaths: readonly string[]): string | undefined {
  const rel = relative(realRoot, realpathSync(d.at())).split(sep).join('/');
  if (rel === '') return undefined;
  return protectedSegment(rel) ?? gitPaths.find((p) => rel === p || rel.startsWith(`${p}/`));
}

/**
 * One change, in the opened parent folder: the file's diff when it is text and small, or
 * 'unchanged' for a file rewritten with the same bytes and mode (nothing to apply or show).
 */
function applyOne(
  d: ProjectDir,
  name: string,
  c: StagedChange,
  staged: string,
  budget: number,
): { diff?: string } | 'unchanged' {
  if (c.change === 'deleted') {
    if (c.before!.kind === 'dir') {
      try {
        rmdirSync(d.at(name));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOTEMPTY')
          throw new Refused('the folder still holds entries the run did not delete or that were not applied');
        throw e;
      }
    } else unlinkSync(d.at(name));
    return {};
  }
  const after = c.after!;
  if (after.kind === 'dir') {
    // An added folder the project already has (made meanwhile, or a parent made for a child) is kept.
    if (c.change === 'added' && lstatIfPresent(d.at(name))?.isDirectory() !== true)
      mkdirSync(d.at(name), { mode: after.mode });
    else chmodSync(d.at(name), after.mode);
    return {};
  }
  if (after.kind === 'symlink') {
    const tmp = tempName(name);
    symlinkSync(after.target ?? '', d.at(tmp));
    renameSync(d.at(tmp), d.at(name));
    return {};
  }
  const data = readFileSync(staged);
  const old = c.change === 'changed' ? readFileIn(d, name) : Buffer.alloc(0);
  if (old?.equals(data) && c.before?.mode === after.mode && c.change === 'changed') return 'unchanged';
  replaceFileIn(d, name, data, after.mode);
  const textual = (b: Buffer | undefined): b is Buffer =>
    b !== undefined && b.length <= DIFF_FILE_LIMIT && !b.includes(0);
  if (!textual(old) || !textual(data) || budget <= 0) return {};
  return { diff: unifiedDiff(c.path, old.toString('utf8'), data.toString('utf8')) };
}
