import type { EmitContext, EmitResult, PreparedSkill, ProjectFiles, TargetDef } from './types';

/** A target's emit of a prepared skill, for one project and compile context. */
export type EmitOf = (p: PreparedSkill, t: TargetDef) => EmitResult;

/**
 * Emits kept per (skill, target) for one project and context. Pricing a skill, bounding an
 * always-loaded file and grading a cell each read the same emit, and an emit renders the body
 * and every bundled file again: a report asks once and shares the answer. Emits are pure, so
 * the shared result is the one each would have made.
 */
export function emitOnce(project: ProjectFiles, context?: EmitContext): EmitOf {
  const memo = new WeakMap<PreparedSkill, Map<TargetDef, EmitResult>>();
  return (p, t) => {
    let byTarget = memo.get(p);
    if (!byTarget) memo.set(p, (byTarget = new Map()));
    let out = byTarget.get(t);
    if (!out) byTarget.set(t, (out = t.emit(p, project, context)));
    return out;
  };
}
