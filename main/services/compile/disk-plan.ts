import { createHash } from 'node:crypto';
import { summarize, type CompilePlan } from '../../../shared/compile/plan';
import type { DiskPlan } from '../../../shared/ipc/channels/compile';
import { CodedError } from '../../../shared/result';
import { applyPlan, diskProject, planProject } from './index';

const size = (c: string | Uint8Array): number => (typeof c === 'string' ? Buffer.byteLength(c) : c.length);

/** A digest of everything the plan would do, to tell whether the plan shown is still the plan. */
export function planDigest(plan: CompilePlan): string {
  const h = createHash('sha256');
  const put = (s: string): void => {
    h.update(s);
    h.update('\0');
  };
  for (const e of plan.errors) put(`e:${e}`);
  for (const f of [...plan.write, ...plan.merge]) {
    put(`${f.merge ?? 'w'}:${f.path}:${f.changed ? 1 : 0}`);
    if (f.changed) h.update(typeof f.content === 'string' ? f.content : f.content);
  }
  for (const p of plan.prune) put(`p:${p.action}:${p.path}:${p.content ?? ''}`);
  return h.digest('hex');
}

export function diskPlan(root: string, plan: CompilePlan): DiskPlan {
  const view = diskProject(root);
  const row = (f: CompilePlan['write'][number]) => ({
    path: f.path,
    changed: f.changed,
    created: !view.exists(f.path),
    skill: f.skill ?? null,
    merge: f.merge ?? null,
    bytes: size(f.content),
  });
  return {
    errors: [...plan.errors],
    targets: [...plan.targets],
    write: plan.write.map(row),
    merge: plan.merge.map(row),
    prune: plan.prune.map((p) => ({ path: p.path, action: p.action, reason: p.reason })),
    warnings: [...plan.warnings],
    notes: [...plan.notes],
    compiled: plan.compiled,
    failures: plan.failures.map((f) => ({ ...f })),
    withheld: plan.withheld.map((w) => ({ ...w })),
    digest: planDigest(plan),
  };
}

/** The project's compile plan; a bad kitbash.toml is the user's to fix, so it is a one-line refusal. */
export function currentPlan(root: string): CompilePlan {
  try {
    return planProject(root);
  } catch (e) {
    throw new CodedError('invalid-input', e instanceof Error ? e.message.split('\n')[0]! : String(e));
  }
}

/** Apply the plan only if it is still the one the window showed (by digest) and has no errors. */
export async function applyShownPlan(root: string, digest: string) {
  const current = currentPlan(root);
  if (current.errors.length) return { status: 'refused' as const, errors: [...current.errors] };
  if (planDigest(current) !== digest) return { status: 'stale' as const, plan: diskPlan(root, current) };
  const applied = await applyPlan(root, current, { durable: true });
  return {
    status: 'applied' as const,
    ...applied,
    summary: summarize(current),
    withheld: current.withheld.map((w) => ({ ...w })),
  };
}
