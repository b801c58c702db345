import { estimateTokens } from '../ksf/tokens';
import { fileTokens } from './common';
import { emitOnce, type EmitOf } from './emit-once';
import { targetById } from './registry';
import type { EmitContext, Loading, PreparedSkill, ProjectFiles, TargetDef, TargetId } from './types';

/** What one skill costs on one target in every session, before anything is invoked. */
export interface StandingCost {
  readonly skill: string;
  readonly target: TargetId;
  readonly loading: Loading;
  /** Estimated tokens resident every session. */
  readonly tokens: number;
  /** description: lazy target, only the trigger description is resident; emitted: eager, the whole emitted text. */
  readonly basis: 'description' | 'emitted';
  /** Tokens of the emitted text — what is loaded when the skill is used. */
  readonly loadedTokens: number;
  /** The target's notes for this skill (eager cost, Aider wiring, …). */
  readonly notes: readonly string[];
}

/** A project with no files: detection finds only the floor; notes assume nothing is configured. */
export const EMPTY_PROJECT: ProjectFiles = {
  rootName: 'project',
  exists: () => false,
  read: () => undefined,
  list: () => [],
};

function resolveTarget(target: TargetDef | TargetId): TargetDef {
  if (typeof target !== 'string') return target;
  const t = targetById(target);
  if (!t) throw new Error(`unknown target "${target}"`);
  return t;
}

/**
 * Standing cost of a prepared skill on a target (lazy: description tokens; eager: emitted text
 * tokens). `context` is the compile's active targets: with it an always-loaded file priced as
 * compile writes it (an index line, not the body, when a skill folder serves its readers).
 */
export function standingCost(
  p: PreparedSkill,
  target: TargetDef | TargetId,
  project: ProjectFiles = EMPTY_PROJECT,
  context?: EmitContext,
  emit: EmitOf = emitOnce(project, context),
): StandingCost {
  const t = resolveTarget(target);
  const out = emit(p, t);
  const text = out.files;
  const loadedTokens = fileTokens(text);
  const eager = t.loading === 'eager';
  return {
    skill: p.name,
    target: t.id,
    loading: t.loading,
    tokens: eager ? loadedTokens : estimateTokens(p.description),
    basis: eager ? 'emitted' : 'description',
    loadedTokens,
    notes: out.notes,
  };
}

export interface TargetTotal {
  readonly target: TargetId;
  readonly loading: Loading;
  /** Σ standing tokens of every skill on this target: the per-session price. */
  readonly tokens: number;
  readonly skills: number;
}

/** Per-target totals per session over a set of skills, in the targets' order. */
export function standingTotals(
  skills: readonly PreparedSkill[],
  targets: readonly (TargetDef | TargetId)[],
  project: ProjectFiles = EMPTY_PROJECT,
): TargetTotal[] {
  return targets.map((target) => {
    const t = resolveTarget(target);
    let tokens = 0;
    for (const s of skills) tokens += standingCost(s, t, project).tokens;
    return { target: t.id, loading: t.loading, tokens, skills: skills.length };
  });
}
