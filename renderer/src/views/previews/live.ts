/**
 * Live compile planning in the renderer: the snapshot main sent (what the planner reads on
 * disk) plus the edited skill's unsaved buffers → the same plan `skillsmith compile` would
 * make, and per target what the edited skill becomes. Pure (no IPC, no DOM): it runs in
 * tests and in the bench as it runs in the app.
 */
import { planCompile, type CompilePlan, type PlannedFile } from '../../../../shared/compile';
import type { CompileSnapshot } from '../../../../shared/ipc/channels/compile';
import type { Skill } from '../../../../shared/ksf/model';
import { standingStub } from '../../../../shared/ksf/stub';
import { estimateTokens } from '../../../../shared/ksf/tokens';
import { EMPTY_CONFIG } from '../../../../shared/project/config';
import { matrixCell, type Reason } from '../../../../shared/targets/matrix';
import { standingCost } from '../../../../shared/targets/cost';
import { prepareSkill } from '../../../../shared/targets/prepare';
import { TARGETS, VENDOR_NEUTRAL_ALIASES } from '../../../../shared/targets/registry';
import type { CellStatus, Loading, PreparedSkill, ProjectFiles, TargetDef, TargetId } from '../../../../shared/targets';
import { base, projectSkills } from './snapshot';

// The matrix and the costs read the same snapshot; they import these from here.
export { activeTargets, explainCell, snapshotCosts, snapshotListings, snapshotMatrix } from './reports';
export type { Cell, Explanation, Matrix, SkillCost } from './reports';

export interface PreviewFile {
  readonly path: string;
  /** What compile writes there (a merged file: the whole file, every section). */
  readonly content: string | Uint8Array;
  /** What is there now; undefined when the file does not exist. */
  readonly disk: string | undefined;
  readonly changed: boolean;
  readonly merge?: 'section' | 'settings';
  /** Emitted for this target but written once under another folder (e.g. `.agents/skills/`) that it also reads. */
  readonly servedBy?: string;
}

export interface TargetPreview {
  readonly target: TargetId;
  readonly agent: string;
  readonly loading: Loading;
  readonly status: CellStatus;
  readonly reasons: readonly Reason[];
  /** Tokens resident every session (lazy: the description; eager: the emitted text). */
  readonly standingTokens: number;
  /** Tokens of the emitted text: what the agent holds once the skill is used. */
  readonly loadedTokens: number;
  readonly files: readonly PreviewFile[];
  readonly warnings: readonly string[];
  readonly notes: readonly string[];
  /** Not a target of this project: what compile would write if it were added to the active ones. */
  readonly inactive?: true;
}

export interface LivePreview {
  /** Why the edited skill does not load (then there are no previews). */
  readonly loadError?: string;
  /** Why it loads but does not compile (a template error). */
  readonly prepareError?: string;
  readonly name?: string;
  readonly bodyTokens?: number;
  readonly stubTokens?: number;
  readonly budget?: number;
  readonly standingLimit?: number;
  readonly disclosure?: 'lazy' | 'eager';
  /** The project's plan with the edit in it (a config error first among its refusals). */
  readonly plan: CompilePlan;
  /** Refusals this skill causes: the plan has them with it and not without it. */
  readonly refusals: readonly string[];
  /**
   * Refusals the project has whatever this skill says (another skill's conflict, the config):
   * the dashboard's to show, counted here only so the preview does not claim compile would work.
   */
  readonly projectRefusals: readonly string[];
  /** Why compile would skip this skill although it loads (over its budget or standing limit). */
  readonly failure?: string;
  readonly targets: readonly TargetPreview[];
  /** Planning time in ms. */
  readonly ms: number;
}

function planFiles(plan: CompilePlan): Map<string, PlannedFile> {
  const m = new Map<string, PlannedFile>();
  for (const f of plan.write) m.set(f.path, f);
  for (const f of plan.merge) m.set(f.path, f);
  return m;
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** Plan the project with the edited skill's buffers and describe what each active target gets. */
export function livePreview(
  snap: CompileSnapshot,
  dir: string,
  files: ReadonlyMap<string, string>,
  options: { inactive?: boolean } = {},
): LivePreview {
  const t0 = now();
  const b = base(snap);
  const { skills, failures, edited } = projectSkills(snap, { dir, files });
  const config = b.config.ok ? b.config.value : EMPTY_CONFIG;
  const plan = planCompile({ skills, failures, config, project: b.view });
  const planned = b.config.ok ? plan : { ...plan, errors: [b.config.message, ...plan.errors] };
  const regardless = projectRefusals(snap, dir);
  const split = {
    refusals: plan.errors.filter((e) => !regardless.has(e)),
    projectRefusals: [...(b.config.ok ? [] : [b.config.message]), ...plan.errors.filter((e) => regardless.has(e))],
  };
  if (!edited || !edited.ok)
    return {
      loadError: edited && !edited.ok ? edited.failure.message : `${dir}: not loaded`,
      plan: planned,
      ...split,
      targets: [],
      ms: now() - t0,
    };
  const skill = edited.skill;
  const m = skill.manifest;
  const facts = {
    ...split,
    name: m.skill.name,
    budget: m.context.budget,
    standingLimit: m.context.standing,
    disclosure: m.context.disclosure,
  };
  const p = prepareSkill(skill);
  if (!p.ok)
    return {
      ...facts,
      prepareError: p.error.message,
      bodyTokens: estimateTokens(skill.body),
      plan: planned,
      targets: [],
      ms: now() - t0,
    };
  const prepared = p.value;
  const failure = plan.failures.find((f) => f.name === m.skill.name)?.message;
  const byPath = planFiles(plan);
  const active = TARGETS.filter((t) => plan.targets.includes(t.id));
  const targets = active.map((t) => targetPreview(t, skill, prepared, b.view, plan, byPath));
  if (options.inactive && !plan.errors.length) {
    // Each other target as if it were added to the project's: the same planner, one more target.
    for (const t of TARGETS) {
      if (plan.targets.includes(t.id)) continue;
      const withIt = planCompile({
        skills,
        failures,
        config: { ...config, targets: [...plan.targets, t.id] },
        project: b.view,
      });
      if (withIt.errors.length) continue;
      targets.push({ ...targetPreview(t, skill, prepared, b.view, withIt, planFiles(withIt)), inactive: true });
    }
    const order = (id: TargetId): number => TARGETS.findIndex((t) => t.id === id);
    targets.sort((x, y) => order(x.target) - order(y.target));
  }
  return {
    ...facts,
    ...(failure !== undefined ? { failure } : {}),
    bodyTokens: estimateTokens(prepared.body),
    stubTokens: estimateTokens(standingStub(prepared.body)),
    plan: planned,
    targets,
    ms: now() - t0,
  };
}

function targetPreview(
  t: TargetDef,
  skill: Skill,
  p: PreparedSkill,
  view: ProjectFiles,
  plan: CompilePlan,
  byPath: ReadonlyMap<string, PlannedFile>,
): TargetPreview {
  // Emitted, graded and priced as this plan's compile would: with its active targets.
  const context = { active: TARGETS.filter((x) => plan.targets.includes(x.id)) };
  const out = t.emit(p, view, context);
  const cell = matrixCell(skill, p, t, view, undefined, context);
  const cost = standingCost(p, t, view, context);
  const alias = VENDOR_NEUTRAL_ALIASES.find((a) => a.id === t.id);
  const files: PreviewFile[] = out.files.map((f) => {
    let path = f.path;
    let servedBy: string | undefined;
    if (!byPath.has(path) && alias && path.startsWith(`${alias.dir}/`)) {
      servedBy = `.agents/skills/${path.slice(alias.dir.length + 1)}`;
      path = servedBy;
    }
    const pf = byPath.get(path);
    const content = pf ? pf.content : f.content;
    const disk = view.read(path);
    const changed = pf ? pf.changed : disk !== content;
    return {
      path,
      content,
      disk,
      changed,
      ...(pf?.merge ? { merge: pf.merge } : f.merge ? { merge: 'section' as const } : {}),
      ...(servedBy ? { servedBy } : {}),
    };
  });
  const mine = (s: string): boolean => s.startsWith(`${t.id}:`);
  return {
    target: t.id,
    agent: t.agent,
    loading: t.loading,
    status: cell.status,
    reasons: cell.reasons,
    standingTokens: cost.tokens,
    loadedTokens: cost.loadedTokens,
    files,
    warnings: out.warnings,
    notes: [...out.notes, ...plan.notes.filter(mine)],
  };
}

const withoutMemo = new WeakMap<CompileSnapshot, Map<string, ReadonlySet<string>>>();

/**
 * The plan's refusals with skill `dir` left out of the project: what compile refuses
 * whatever that skill says. Computed once per snapshot and skill, not per keystroke.
 */
function projectRefusals(snap: CompileSnapshot, dir: string): ReadonlySet<string> {
  let memo = withoutMemo.get(snap);
  if (!memo) withoutMemo.set(snap, (memo = new Map()));
  const hit = memo.get(dir);
  if (hit) return hit;
  const b = base(snap);
  const { skills, failures } = projectSkills(snap, { dir, files: null });
  const plan = planCompile({ skills, failures, config: b.config.ok ? b.config.value : EMPTY_CONFIG, project: b.view });
  const errors = new Set(plan.errors);
  memo.set(dir, errors);
  return errors;
}
