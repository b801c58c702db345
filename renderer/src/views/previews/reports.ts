/**
 * Project-wide reports from the compile snapshot alone (no buffers): the compatibility
 * matrix, one cell explained, the active targets, the standing cost per skill and target,
 * and each agent's skills listing. Pure, like the live previews they share a snapshot with.
 */
import { planCompile, type FailedSkill } from '../../../../shared/compile';
import type { CompileSnapshot } from '../../../../shared/ipc/channels/compile';
import { EMPTY_CONFIG } from '../../../../shared/project/config';
import { compatibilityMatrix, matrixCell, type Cell, type Matrix } from '../../../../shared/targets/matrix';
import { standingCost } from '../../../../shared/targets/cost';
import { listingReport, type ListingReport } from '../../../../shared/targets/listing';
import { prepareSkill } from '../../../../shared/targets/prepare';
import { TARGETS } from '../../../../shared/targets/registry';
import type { TargetDef, TargetId } from '../../../../shared/targets';
import { base, projectSkills } from './snapshot';

/**
 * The compatibility matrix of the project as the snapshot has it (every target, or the given ones); `dirs`: skill name
 * → folder.
 */
export function snapshotMatrix(
  snap: CompileSnapshot,
  targets: readonly TargetDef[] = TARGETS,
): { matrix: Matrix; failures: FailedSkill[]; dirs: Record<string, string> } {
  const b = base(snap);
  const { skills, failures } = projectSkills(snap);
  const dirs: Record<string, string> = {};
  for (const [dir, l] of b.loaded) if (l.ok) dirs[l.skill.manifest.skill.name] = dir;
  return { matrix: compatibilityMatrix(skills, targets, b.view), failures, dirs };
}

export interface Explanation {
  readonly cell: Cell;
  readonly target: TargetDef;
  readonly requires: readonly string[];
  readonly disclosure: 'lazy' | 'eager';
  readonly standingTokens: number | null;
  readonly loadedTokens: number | null;
  readonly notes: readonly string[];
}

/** One (skill, target) as `skillsmith explain` reports it: the cell, what the target delivers, and the cost. */
export function explainCell(snap: CompileSnapshot, skillName: string, targetId: string): Explanation | undefined {
  const b = base(snap);
  const t = TARGETS.find((x) => x.id === targetId);
  const skill = [...b.loaded.values()].flatMap((l) =>
    l.ok && l.skill.manifest.skill.name === skillName ? [l.skill] : [],
  )[0];
  if (!t || !skill) return undefined;
  const p = prepareSkill(skill);
  const cell = matrixCell(skill, p.ok ? p.value : undefined, t, b.view, p.ok ? undefined : p.error.message);
  const cost = p.ok ? standingCost(p.value, t, b.view) : undefined;
  return {
    cell,
    target: t,
    requires: skill.manifest.targets.requires,
    disclosure: skill.manifest.context.disclosure,
    standingTokens: cost?.tokens ?? null,
    loadedTokens: cost?.loadedTokens ?? null,
    notes: cost?.notes ?? [],
  };
}

/** Active targets of the snapshot's project (configured, else detected). */
export function activeTargets(snap: CompileSnapshot): { targets: TargetId[]; explicit: boolean; error?: string } {
  const b = base(snap);
  const { skills, failures } = projectSkills(snap);
  const plan = planCompile({ skills, failures, config: b.config.ok ? b.config.value : EMPTY_CONFIG, project: b.view });
  return {
    targets: [...plan.targets],
    explicit: plan.explicitTargets,
    ...(plan.errors.length ? { error: plan.errors[0]! } : {}),
  };
}

export interface SkillCost {
  readonly skill: string;
  readonly disclosure: 'lazy' | 'eager';
  /** Standing tokens per target id; null when the skill does not compile. */
  readonly perTarget: Readonly<Record<string, number | null>>;
  readonly loadedPerTarget: Readonly<Record<string, number | null>>;
  readonly error?: string;
}

/** Standing (and loaded) cost per skill per target, from the snapshot. */
export function snapshotCosts(
  snap: CompileSnapshot,
  targets: readonly TargetDef[] = TARGETS,
): { skills: SkillCost[]; failures: FailedSkill[] } {
  const b = base(snap);
  const { skills, failures } = projectSkills(snap);
  // Priced as compile writes for the project's active targets (AGENTS.md as an index where a skill folder serves it).
  const active = activeTargets(snap).targets;
  const context = { active: TARGETS.filter((t) => active.includes(t.id)) };
  const rows = [...skills]
    .sort((x, y) => (x.manifest.skill.name < y.manifest.skill.name ? -1 : 1))
    .map((s): SkillCost => {
      const p = prepareSkill(s);
      const perTarget: Record<string, number | null> = {};
      const loadedPerTarget: Record<string, number | null> = {};
      for (const t of targets) {
        if (!p.ok) {
          perTarget[t.id] = null;
          loadedPerTarget[t.id] = null;
          continue;
        }
        const c = standingCost(p.value, t, b.view, context);
        perTarget[t.id] = c.tokens;
        loadedPerTarget[t.id] = c.loadedTokens;
      }
      return {
        skill: s.manifest.skill.name,
        disclosure: s.manifest.context.disclosure,
        perTarget,
        loadedPerTarget,
        ...(p.ok ? {} : { error: p.error.message }),
      };
    });
  return { skills: rows, failures };
}

/** Each agent's skills listing at session start (targets that document a budget): what is cut or left out. */
export function snapshotListings(snap: CompileSnapshot, targets: readonly TargetDef[] = TARGETS): ListingReport[] {
  const ready = projectSkills(snap).skills.flatMap((s) => {
    const p = prepareSkill(s);
    return p.ok ? [p.value] : [];
  });
  return targets.flatMap((t) => listingReport(ready, t) ?? []);
}

export type { Cell, Matrix };
