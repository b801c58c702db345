/**
 * Live compile planning in the renderer: the snapshot main sent (what the planner reads on
 * disk) plus the edited skill's unsaved buffers → the same plan `skillsmith compile` would
 * make, and per target what the edited skill becomes. Pure (no IPC, no DOM): it runs in
 * tests and in the bench as it runs in the app.
 */
import {
  memoryView,
  planCompile,
  type CompilePlan,
  type FailedSkill,
  type PlannedFile,
} from '../../../../shared/compile';
import type { CompileSnapshot, SnapshotSkill } from '../../../../shared/ipc/channels/compile';
import { formatError } from '../../../../shared/result';
import { loadSkill } from '../../../../shared/ksf/load';
import type { Skill } from '../../../../shared/ksf/model';
import { standingStub } from '../../../../shared/ksf/stub';
import { estimateTokens } from '../../../../shared/ksf/tokens';
import type { SkillTree, TreeEntry } from '../../../../shared/ksf/tree';
import { EMPTY_CONFIG, parseProjectConfig, type ProjectConfig } from '../../../../shared/project/config';
import {
  compatibilityMatrix,
  matrixCell,
  type Cell,
  type Matrix,
  type Reason,
} from '../../../../shared/targets/matrix';
import { standingCost } from '../../../../shared/targets/cost';
import { listingReport, type ListingReport } from '../../../../shared/targets/listing';
import { prepareSkill } from '../../../../shared/targets/prepare';
import { TARGETS, VENDOR_NEUTRAL_ALIASES } from '../../../../shared/targets/registry';
import type { CellStatus, Loading, PreparedSkill, ProjectFiles, TargetDef, TargetId } from '../../../../shared/targets';

function b64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const encoder = new TextEncoder();

/** The files of the project the planner reads, as an in-memory view (folders as `dir/` keys). */
export function snapshotView(snap: CompileSnapshot): ProjectFiles {
  const files: Record<string, string | Uint8Array> = {};
  for (const d of snap.dirs) files[`${d}/`] = '';
  for (const f of snap.files) files[f.path] = f.base64 !== undefined ? b64(f.base64) : (f.text ?? '');
  return memoryView(files, snap.rootName);
}

/** Walk order of the skill reader: per-directory UTF-16 order, depth first. */
function walkOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

/** A skill tree from the snapshot, with `buffers` (skill-relative path → text) laid over it. */
export function skillTree(s: SnapshotSkill, buffers?: ReadonlyMap<string, string>): SkillTree {
  const entries = new Map<string, TreeEntry>();
  for (const e of s.entries) {
    if (e.kind === 'file')
      entries.set(e.path, {
        kind: 'file',
        path: e.path,
        bytes: e.base64 !== undefined ? b64(e.base64) : encoder.encode(e.text ?? ''),
      });
    else
      entries.set(
        e.path,
        e.kind === 'dir' ? { kind: 'dir', path: e.path } : { kind: 'symlink', path: e.path, target: e.target },
      );
  }
  if (buffers) {
    for (const [path, text] of buffers) {
      entries.set(path, { kind: 'file', path, bytes: encoder.encode(text) });
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const d = parts.slice(0, i).join('/');
        if (!entries.has(d)) entries.set(d, { kind: 'dir', path: d });
      }
    }
  }
  return { root: s.display, entries: [...entries.values()].sort((a, b) => walkOrder(a.path, b.path)) };
}

type Loaded = { ok: true; skill: Skill } | { ok: false; failure: FailedSkill };

function loadFrom(s: SnapshotSkill, buffers?: ReadonlyMap<string, string>): Loaded {
  if (s.broken !== null && !buffers) return { ok: false, failure: { name: s.dir, message: s.broken } };
  const r = loadSkill(skillTree(s, buffers));
  return r.ok
    ? { ok: true, skill: r.value }
    : {
        ok: false,
        failure: { name: s.dir, message: oneLine(formatError({ ...r.error, detail: [] }), r.error.detail) },
      };
}

function oneLine(head: string, problems: readonly string[] | undefined): string {
  return problems?.length ? `${head} — ${problems.join('; ')}` : head;
}

/**
 * Everything derived from a snapshot alone, computed once per snapshot (Skill identity keeps the planner's memo warm).
 */
interface Base {
  readonly view: ProjectFiles;
  readonly config: { ok: true; value: ProjectConfig } | { ok: false; message: string };
  readonly loaded: ReadonlyMap<string, Loaded>;
}
const bases = new WeakMap<CompileSnapshot, Base>();

function base(snap: CompileSnapshot): Base {
  let b = bases.get(snap);
  if (b) return b;
  let config: Base['config'];
  if (snap.configError) config = { ok: false, message: snap.configError };
  else if (snap.config === null) config = { ok: true, value: EMPTY_CONFIG };
  else {
    const c = parseProjectConfig(snap.config);
    config = c.ok ? { ok: true, value: c.value } : { ok: false, message: formatError(c.error) };
  }
  const loaded = new Map<string, Loaded>(snap.skills.map((s) => [s.dir, loadFrom(s)]));
  b = { view: snapshotView(snap), config, loaded };
  bases.set(snap, b);
  return b;
}

/** The project's skills and failures, with `dir` replaced by its edited version (or added, for a new skill). */
export function projectSkills(
  snap: CompileSnapshot,
  edit?: { dir: string; files: ReadonlyMap<string, string> },
): { skills: Skill[]; failures: FailedSkill[]; edited?: Loaded } {
  const b = base(snap);
  const skills: Skill[] = [];
  const failures: FailedSkill[] = [];
  let edited: Loaded | undefined;
  const dirs = snap.skills.map((s) => s.dir);
  if (edit && !dirs.includes(edit.dir)) dirs.push(edit.dir);
  for (const dir of dirs) {
    let l: Loaded;
    if (edit && dir === edit.dir) {
      const s = snap.skills.find((x) => x.dir === dir) ?? {
        dir,
        display: `.kitbash/skills/${dir}`,
        broken: null,
        entries: [],
      };
      l = editedLoad(s, edit.files);
      edited = l;
    } else l = b.loaded.get(dir)!;
    if (l.ok) skills.push(l.skill);
    else failures.push(l.failure);
  }
  return { skills, failures, ...(edited ? { edited } : {}) };
}

/** The last edited load, reused while the buffers are the same map (a re-render without an edit). */
const editedMemo = new WeakMap<ReadonlyMap<string, string>, { s: SnapshotSkill; l: Loaded }>();
function editedLoad(s: SnapshotSkill, files: ReadonlyMap<string, string>): Loaded {
  const hit = editedMemo.get(files);
  if (hit && hit.s === s) return hit.l;
  const l = loadFrom(s, files);
  editedMemo.set(files, { s, l });
  return l;
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
  /** The project's plan with the edit in it. */
  readonly plan: CompilePlan;
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
  if (!edited || !edited.ok)
    return {
      loadError: edited && !edited.ok ? edited.failure.message : `${dir}: not loaded`,
      plan: planned,
      targets: [],
      ms: now() - t0,
    };
  const skill = edited.skill;
  const m = skill.manifest;
  const facts = {
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

export type { Cell, Matrix, Reason };
