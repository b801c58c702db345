/**
 * Live compile previews: the project as compile reads it, with one skill's unsaved buffers
 * laid over its folder → the same plan `skillsmith compile` would make once they are saved,
 * and per target what that skill becomes. Pure (the disk arrives as data and a files
 * view), so tests hold it against `planProject` on disk. It runs on main's worker thread:
 * at 1,000 skills the page gets this skill's answer, not every skill's files.
 */
import { planCompile, type CompilePlan, type FailedSkill, type PlannedFile } from '../../../shared/compile';
import {
  describeWithheld,
  withheldReason,
  type ReviewFacts,
  type WithheldSkill,
} from '../../../shared/compile/deliver';
import { treeIntegrityFast } from '../lock/index';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import { standingStub } from '../../../shared/ksf/stub';
import { estimateTokens } from '../../../shared/ksf/tokens';
import type { SkillTree, TreeEntry } from '../../../shared/ksf/tree';
import type { ProjectConfig } from '../../../shared/project/config';
import { formatError } from '../../../shared/result';
import { standingCost } from '../../../shared/targets/cost';
import { emitOnce } from '../../../shared/targets/emit-once';
import { matrixCell, notDelivered, type Reason } from '../../../shared/targets/matrix';
import { prepareSkill } from '../../../shared/targets/prepare';
import { TARGETS, VENDOR_NEUTRAL_ALIASES } from '../../../shared/targets/registry';
import type { CellStatus, Loading, PreparedSkill, ProjectFiles, TargetDef, TargetId } from '../../../shared/targets';

/** The project as compile reads it: every installed folder loaded (or failed), the config, the files view. */
export interface PreviewProject {
  readonly skills: readonly Skill[];
  readonly failures: readonly FailedSkill[];
  readonly config: ProjectConfig;
  /** Why kitbash.toml could not be read (then `config` is the empty one and compile refuses). */
  readonly configError?: string;
  readonly view: ProjectFiles;
  /** kitbash.lock's pins, as compile checks them (shared/compile/deliver.ts). */
  readonly pins: ReviewFacts['pins'];
  /** Skills compile does not deliver as they are on disk (not the reviewed bytes, or a blocking finding). */
  readonly withheld: readonly WithheldSkill[];
}

/** The skill being edited: its folder as it is on disk (null: there is none yet) and its buffers. */
export interface Edit {
  readonly dir: string;
  readonly tree: SkillTree | null;
  /** Why the thing at `.kitbash/skills/<dir>` is not a skill folder compile reads (a symlink, no SKILL.md). */
  readonly broken?: string;
  /** Skill-relative path → text, laid over the folder. */
  readonly files: ReadonlyMap<string, string>;
}

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
}

const encoder = new TextEncoder();

/** Walk order of the skill reader: per-directory UTF-16 order, depth first. */
function walkOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

/** The edited skill's folder with its buffers laid over it (new files get their parent folders). */
export function editedTree(edit: Edit): SkillTree {
  const entries = new Map<string, TreeEntry>();
  for (const e of edit.tree?.entries ?? []) entries.set(e.path, e);
  for (const [path, text] of edit.files) {
    entries.set(path, { kind: 'file', path, bytes: encoder.encode(text) });
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!entries.has(d)) entries.set(d, { kind: 'dir', path: d });
    }
  }
  return {
    root: edit.tree?.root ?? `.kitbash/skills/${edit.dir}`,
    entries: [...entries.values()].sort((a, b) => walkOrder(a.path, b.path)),
  };
}

/** The folder a loaded skill was read from (`.kitbash/skills/<dir>`). */
const folderOf = (s: Skill): string => s.tree.root.slice(s.tree.root.lastIndexOf('/') + 1);

const byDir = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

type Loaded = { ok: true; skill: Skill } | { ok: false; failure: FailedSkill };

/** As `loadInstalled` reports a folder: the skill, or its load error on one line. */
function loadEdited(edit: Edit): Loaded {
  if (edit.broken !== undefined) return { ok: false, failure: { name: edit.dir, message: edit.broken } };
  const r = loadSkill(editedTree(edit));
  if (r.ok) return { ok: true, skill: r.value };
  const head = formatError({ ...r.error, detail: [] });
  return {
    ok: false,
    failure: { name: edit.dir, message: r.error.detail?.length ? `${head} — ${r.error.detail.join('; ')}` : head },
  };
}

/** The project's skills and failures with folder `dir` left out. */
function without(p: PreviewProject, dir: string): { skills: Skill[]; failures: FailedSkill[] } {
  return {
    skills: p.skills.filter((s) => folderOf(s) !== dir),
    failures: p.failures.filter((f) => f.name !== dir),
  };
}

const plannedWith = (
  p: PreviewProject,
  skills: readonly Skill[],
  failures: readonly FailedSkill[],
  withheld: readonly WithheldSkill[] = p.withheld,
) => planCompile({ skills, failures, withheld, config: p.config, project: p.view });

// The edited skill is hashed per keystroke; the same Skill object is hashed once.
const integrityMemo = new WeakMap<Skill, string>();
function integrityOf(s: Skill): string {
  let i = integrityMemo.get(s);
  if (i === undefined) integrityMemo.set(s, (i = treeIntegrityFast(s.tree)));
  return i;
}

/**
 * What compile withholds with the edited skill in the project: the others as on disk, and it as
 * edited (`mine`). The preview plans the edited skill as delivered all the same — its author
 * sees what it delivers once it may be (re-pinned, fixed) — and says that compile would not
 * deliver it now: `failure`, and every target's cell not-delivered.
 */
function withheldWith(
  p: PreviewProject,
  rest: readonly Skill[],
  edited: Skill | undefined,
): { others: WithheldSkill[]; mine: WithheldSkill | undefined } {
  const names = new Set(rest.map((s) => s.manifest.skill.name));
  return {
    others: p.withheld.filter((w) => names.has(w.name)),
    mine: edited && withheldReason(edited, { pins: p.pins, integrityOf, config: p.config }),
  };
}

/**
 * The plan's refusals with skill `dir` left out of the project: what compile refuses
 * whatever that skill says. Kept per project state and folder, not computed per keystroke.
 */
const withoutMemo = new WeakMap<PreviewProject, Map<string, ReadonlySet<string>>>();
function projectRefusals(p: PreviewProject, dir: string): ReadonlySet<string> {
  let memo = withoutMemo.get(p);
  if (!memo) withoutMemo.set(p, (memo = new Map()));
  let hit = memo.get(dir);
  if (!hit) {
    const rest = without(p, dir);
    memo.set(dir, (hit = new Set(plannedWith(p, rest.skills, rest.failures).errors)));
  }
  return hit;
}

function planFiles(plan: CompilePlan): Map<string, PlannedFile> {
  const m = new Map<string, PlannedFile>();
  for (const f of plan.write) m.set(f.path, f);
  for (const f of plan.merge) m.set(f.path, f);
  return m;
}

/** Plan the project with the edited skill's buffers and describe what each active target gets. */
export function livePreview(p: PreviewProject, edit: Edit, options: { inactive?: boolean } = {}): LivePreview {
  const rest = without(p, edit.dir);
  const edited = loadEdited(edit);
  // In folder order, as loadInstalled reads them: the order decides between two skills of one name.
  const skills = edited.ok
    ? [...rest.skills, edited.skill].sort((a, b) => byDir(folderOf(a), folderOf(b)))
    : rest.skills;
  const failures = edited.ok ? rest.failures : [...rest.failures, edited.failure].sort((a, b) => byDir(a.name, b.name));
  const { others: withheld, mine } = withheldWith(p, rest.skills, edited.ok ? edited.skill : undefined);
  const plan = plannedWith(p, skills, failures, withheld);
  const planned = p.configError === undefined ? plan : { ...plan, errors: [p.configError, ...plan.errors] };
  const regardless = projectRefusals(p, edit.dir);
  const split = {
    refusals: plan.errors.filter((e) => !regardless.has(e)),
    projectRefusals: [
      ...(p.configError === undefined ? [] : [p.configError]),
      ...plan.errors.filter((e) => regardless.has(e)),
    ],
  };
  if (!edited.ok) return { loadError: edited.failure.message, plan: planned, ...split, targets: [] };
  const skill = edited.skill;
  const m = skill.manifest;
  const facts = {
    ...split,
    name: m.skill.name,
    budget: m.context.budget,
    standingLimit: m.context.standing,
    disclosure: m.context.disclosure,
  };
  const prep = prepareSkill(skill);
  if (!prep.ok)
    return {
      ...facts,
      prepareError: prep.error.message,
      bodyTokens: estimateTokens(skill.body),
      plan: planned,
      targets: [],
    };
  const prepared = prep.value;
  const failure = plan.failures.find((f) => f.name === m.skill.name)?.message ?? (mine && describeWithheld(mine));
  const byPath = planFiles(plan);
  const targets = TARGETS.filter((t) => plan.targets.includes(t.id)).map((t) =>
    targetPreview(t, skill, prepared, p.view, plan, byPath, mine),
  );
  if (options.inactive && !plan.errors.length) {
    // Each other target as if it were added to the project's: the same planner, one more target.
    for (const t of TARGETS) {
      if (plan.targets.includes(t.id)) continue;
      const withIt = planCompile({
        skills,
        failures,
        withheld,
        config: { ...p.config, targets: [...plan.targets, t.id] },
        project: p.view,
      });
      if (withIt.errors.length) continue;
      targets.push({ ...targetPreview(t, skill, prepared, p.view, withIt, planFiles(withIt), mine), inactive: true });
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
  };
}

function targetPreview(
  t: TargetDef,
  skill: Skill,
  p: PreparedSkill,
  view: ProjectFiles,
  plan: CompilePlan,
  byPath: ReadonlyMap<string, PlannedFile>,
  held: WithheldSkill | undefined,
): TargetPreview {
  // Emitted, graded and priced as this plan's compile would: with its active targets.
  const context = { active: TARGETS.filter((x) => plan.targets.includes(x.id)) };
  const emit = emitOnce(view, context);
  const out = emit(p, t);
  const graded = matrixCell(skill, p, t, view, { context, emit });
  const cell = held ? notDelivered(graded, held) : graded;
  const cost = standingCost(p, t, view, context, emit);
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
