import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';
import { fingerprint } from '../../../shared/targets/common';
import { generatedBy, type CompilePlan } from '../../../shared/compile/plan';
import { canFlushFileSystems } from '../fs/flush';
import { openProjectDirs, readFileIn, type ProjectDir, type ProjectDirs } from '../fs/inside';
import { writeFilesInside } from './batch-write';
import { containment } from './contain-cache';
import { CodedError } from '../../../shared/result';
import { dropWritten, recordWritten } from './written-record';

export interface Applied {
  /** Paths written (created or changed), in plan order. */
  readonly written: string[];
  /** Paths whose stale sections were removed. */
  readonly rewritten: string[];
  /** Paths deleted. */
  readonly removed: string[];
  /** Planned operations skipped at apply time, with why. */
  readonly skipped: { path: string; why: string }[];
}

/**
 * Apply a plan. Every path is checked first (inside the project, symlinks resolved); if any
 * escapes, nothing is written (an `outside-project` CodedError, as for a folder found
 * swapped later). Each file is replaced atomically (temp + rename), so an interrupted
 * compile leaves every file old or new. A file is deleted only if it still
 * carries the generated header (or, for a delivered script, still holds the delivered bytes).
 */
export async function applyPlan(
  root: string,
  plan: CompilePlan,
  options: { durable?: boolean; written?: Map<string, Uint8Array> } = {},
): Promise<Applied> {
  if (plan.errors.length) throw new Error(`the plan has errors; nothing applied:\n${plan.errors.join('\n')}`);
  const all = [...plan.write, ...plan.merge].filter((f) => f.changed).map((f) => f.path);
  const inside = containment(root);
  for (const p of [...all, ...plan.prune.map((p) => p.path)]) {
    if (!inside(p)) throw new CodedError('outside-project', `refusing to write outside the project: ${p}`);
  }
  const applied: Applied = { written: [], rewritten: [], removed: [], skipped: [] };
  const batch: { rel: string; data: string | Uint8Array; executable?: boolean }[] = [];
  for (const f of [...plan.write, ...plan.merge]) {
    if (!f.changed) continue;
    batch.push({ rel: f.path, data: f.content, ...(f.executable ? { executable: true } : {}) });
    applied.written.push(f.path);
  }
  for (const p of plan.prune) {
    if (p.action !== 'rewrite') continue;
    batch.push({ rel: p.path, data: p.content ?? '' });
    applied.rewritten.push(p.path);
  }
  if (!batch.length && plan.prune.every((p) => p.action === 'rewrite')) {
    recordWritten(root, plan);
    return applied;
  }
  dropWritten(root);
  const durable = options.durable !== false;
  let dirs: ProjectDirs | undefined;
  try {
    // Checked above for a clear refusal up front; written through folders opened inside the
    // project, so a folder swapped for a symlink since the check cannot redirect a write.
    dirs = openProjectDirs(root, { fsyncOnClose: durable && !canFlushFileSystems() });
    await writeFilesInside(dirs, batch, durable, options.written);
    for (const p of plan.prune) {
      if (p.action === 'rewrite') continue;
      const cut = p.path.lastIndexOf('/');
      const [dirRel, name] = cut < 0 ? ['', p.path] : [p.path.slice(0, cut), p.path.slice(cut + 1)];
      const outcome = dirs.use(dirRel, false, (dir) => prune(dir, name, p.fingerprint));
      if (outcome === 'absent') continue;
      if (outcome !== 'removed') {
        applied.skipped.push({ path: p.path, why: outcome });
        continue;
      }
      applied.removed.push(p.path);
      for (const d of p.removeEmptyDirs ?? []) {
        try {
          removeEmptyDir(dirs, d);
        } catch {
          // not empty (a user file lives there) or already gone: leave it
        }
      }
    }
    // The renames and deletes reach the disk: one flush per file system, else each folder's fsync.
    if (durable && (batch.length || applied.removed.length))
      if (!(canFlushFileSystems() && (await dirs.flushFileSystems()))) await dirs.fsyncFolders();
  } finally {
    dirs?.close();
  }
  recordWritten(root, plan);
  return applied;
}

/** Delete a generated file that is still what Skillsmith wrote; otherwise say why it stays. */
function prune(dir: ProjectDir, name: string, fp: string | undefined): 'absent' | 'removed' | string {
  let st;
  try {
    st = lstatSync(dir.at(name));
  } catch {
    return 'absent';
  }
  const bytes = st.isFile() ? readFileIn(dir, name) : undefined;
  if (!bytes) return 'not a regular file';
  const ok = fp !== undefined ? fingerprint(bytes) === fp : generatedBy(bytes.toString('utf8')) !== undefined;
  if (!ok) return fp !== undefined ? 'edited since it was delivered' : 'no generated header';
  unlinkSync(dir.at(name));
  return 'removed';
}

function removeEmptyDir(dirs: ProjectDirs, rel: string): void {
  const cut = rel.lastIndexOf('/');
  dirs.use(cut < 0 ? '' : rel.slice(0, cut), false, (dir) => rmdirSync(dir.at(rel.slice(cut + 1))));
}
