import { planCompile, type CompilePlan } from '../../../shared/compile/plan';
import { loadCompileInput } from './load';
import { diskProject } from './project-files';
import { applyPlan, type Applied } from './writer';

export { applyPlan, type Applied } from './writer';
export { diskProject } from './project-files';
export { loadInstalled } from './load';
export { CompileRecorder } from './record';
export { summarize } from '../../../shared/compile/plan';
export { recordedReport, type RecordedReport } from './recorded';
// Here rather than imported by the compile command: the no-op answered from the record must not load the lint engine.
export { describeWithheld } from '../../../shared/compile/deliver';

export interface CompileResult {
  readonly plan: CompilePlan;
  /** Undefined for a dry run or when the plan has errors (then nothing was written). */
  readonly applied?: Applied;
}

/** Plan the compile of the project at `root` from what is on disk now. kitbash.toml errors throw. */
export function planProject(root: string): CompilePlan {
  return planCompile({ ...loadCompileInput(root), project: diskProject(root) });
}

/**
 * Compile the project (the entry install/remove call afterwards). With `dryRun`, or when
 * the plan has errors, nothing is written. `durable: false` skips fsync (scratch projects).
 */
export async function compileProject(
  root: string,
  options: { dryRun?: boolean; durable?: boolean } = {},
): Promise<CompileResult> {
  const plan = planProject(root);
  if (options.dryRun || plan.errors.length) return { plan };
  return { plan, applied: await applyPlan(root, plan, { durable: options.durable !== false }) };
}

export interface DriftEntry {
  readonly path: string;
  /**
   * missing: compile would create it; differs: its content is not what compile writes; stale: compile would prune it.
   */
  readonly kind: 'missing' | 'differs' | 'stale';
}

/** Generated output that differs from what compile would write now (for doctor); empty = in sync. */
export function compiledDrift(root: string): { drift: DriftEntry[]; errors: readonly string[] } {
  const plan = planProject(root);
  if (plan.errors.length) return { drift: [], errors: plan.errors };
  const view = diskProject(root);
  const drift: DriftEntry[] = [];
  for (const f of [...plan.write, ...plan.merge])
    if (f.changed) drift.push({ path: f.path, kind: view.exists(f.path) ? 'differs' : 'missing' });
  for (const p of plan.prune) drift.push({ path: p.path, kind: 'stale' });
  // A hand-written file where compile would write is left alone — and the output is not in sync.
  for (const c of plan.conflicts) drift.push({ path: c.path, kind: 'differs' });
  return { drift, errors: [] };
}
