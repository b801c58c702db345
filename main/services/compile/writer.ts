import { lstatSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint } from '../../../shared/targets/common';
import { generatedBy, type CompilePlan } from '../../../shared/compile/plan';
import { writeFilesAtomic } from './batch-write';
import { containment } from './contain-cache';

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

export class ContainmentError extends Error {}

/**
 * Apply a plan. Every path is checked first (inside the project, symlinks resolved); if any
 * escapes, nothing is written. Each file is replaced atomically (temp + rename), so an
 * interrupted compile leaves every file old or new. A file is deleted only if it still
 * carries the generated header (or, for a delivered script, still holds the delivered bytes).
 */
export async function applyPlan(root: string, plan: CompilePlan, options: { durable?: boolean } = {}): Promise<Applied> {
  if (plan.errors.length) throw new Error(`the plan has errors; nothing applied:\n${plan.errors.join('\n')}`);
  const targets = new Map<string, string>();
  const all = [...plan.write, ...plan.merge].filter((f) => f.changed).map((f) => f.path);
  const inside = containment(root);
  for (const p of [...all, ...plan.prune.map((p) => p.path)]) {
    const abs = inside(p);
    if (!abs) throw new ContainmentError(`refusing to write outside the project: ${p}`);
    targets.set(p, abs);
  }
  const applied: Applied = { written: [], rewritten: [], removed: [], skipped: [] };
  const batch: { abs: string; data: string | Uint8Array; executable?: boolean }[] = [];
  for (const f of [...plan.write, ...plan.merge]) {
    if (!f.changed) continue;
    batch.push({ abs: targets.get(f.path)!, data: f.content, ...(f.executable ? { executable: true } : {}) });
    applied.written.push(f.path);
  }
  for (const p of plan.prune) {
    if (p.action !== 'rewrite') continue;
    batch.push({ abs: targets.get(p.path)!, data: p.content ?? '' });
    applied.rewritten.push(p.path);
  }
  await writeFilesAtomic(batch, options.durable !== false);
  for (const p of plan.prune) {
    if (p.action === 'rewrite') continue;
    const abs = targets.get(p.path)!;
    let st;
    try {
      st = lstatSync(abs);
    } catch {
      continue;
    }
    if (!st.isFile()) {
      applied.skipped.push({ path: p.path, why: 'not a regular file' });
      continue;
    }
    const bytes = readFileSync(abs);
    const ok = p.fingerprint !== undefined ? fingerprint(bytes) === p.fingerprint : generatedBy(bytes.toString('utf8')) !== undefined;
    if (!ok) {
      applied.skipped.push({ path: p.path, why: p.fingerprint !== undefined ? 'edited since it was delivered' : 'no generated header' });
      continue;
    }
    rmSync(abs);
    applied.removed.push(p.path);
    for (const d of p.removeEmptyDirs ?? []) {
      try {
        rmdirSync(join(root, ...d.split('/')));
      } catch {
        // not empty (a user file lives there) or already gone: leave it
      }
    }
  }
  return applied;
}
