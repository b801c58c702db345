/**
 * The compile plan: installed skills + kitbash.toml + the project's current files →
 * every file operation as data. Pure, so the CLI's --dry-run, the writer and the
 * desktop's live preview all read the same plan.
 */
import type { Skill } from '../ksf/model';
import { standingStub } from '../ksf/stub';
import { estimateTokens } from '../ksf/tokens';
import { collectServers, emitMcp, toolBudget } from '../mcp/emit';
import { DEFAULT_MAX_MCP_TOOLS, enforceInAgent, type ProjectConfig } from '../project/config';
import { boundMergedFiles, readLimits, type MergedDoc } from './read-limits';
import { DELIVERY_RECORD, GENERATED_MARK, generatedBy, indexFolder, readDeliveryRecord } from '../targets/common';
import { listingReport, listingWarnings } from '../targets/listing';
import { prepareSkill } from '../targets/prepare';
import { AGENTS_DIR_TARGETS, resolveTargets, TARGETS, VENDOR_NEUTRAL_ALIASES } from '../targets/registry';
import type { EmitContext, Loading, PreparedSkill, ProjectFiles, TargetDef, TargetId } from '../targets/types';
import { planPrune, type PlannedPrune } from './prune';
import { SharedDoc } from './sections';
import { plural, withNewline } from '../text/format';
import type { WithheldSkill } from './deliver';
import { planScriptGuards } from './guard';
import { trustedSkills, type WrittenOutputs } from './written';

/** A skill folder that did not load or compile: its outputs are protected, never pruned. */
export interface FailedSkill {
  /** The folder name under .kitbash/skills/. */
  readonly name: string;
  readonly message: string;
}

export interface CompileInput {
  readonly skills: readonly Skill[];
  readonly failures?: readonly FailedSkill[];
  /**
   * Loaded skills that may not be delivered (shared/compile/deliver.ts): none of their
   * files is planned, and what an earlier compile delivered of them is pruned.
   */
  readonly withheld?: readonly WithheldSkill[];
  readonly config: ProjectConfig;
  readonly project: ProjectFiles;
  /** The change's plan only (SPEC D274): a skill whose own files it holds exactly is taken as in step, unread. */
  readonly written?: WrittenOutputs;
}

export interface PlannedFile {
  readonly path: string;
  /** Full new content (markdown always ends with a newline). */
  readonly content: string | Uint8Array;
  /** False when the file already holds exactly this content (the writer skips it). */
  readonly changed: boolean;
  /** Skill that produced it; undefined for project-level files (plugin.json, MCP configs). */
  readonly skill?: string;
  /** `section`: a marked-section merge; `settings`: a JSON settings merge by key. */
  readonly merge?: 'section' | 'settings';
  /** Written with execute bits (a delivered file that had them in the skill folder). */
  readonly executable?: boolean;
}

/** A path compile would write that holds a hand-written file (no generated header): left alone. */
export interface Conflict {
  readonly skill: string;
  /** The skill folder (`.claude/skills/x`) or the file in the way. */
  readonly path: string;
  /** Targets whose output for the skill is not written because of it. */
  readonly targets: readonly TargetId[];
}

export interface TargetStanding {
  readonly target: TargetId;
  readonly loading: Loading;
  /** Σ standing tokens per session (lazy: descriptions; eager: emitted sections). */
  readonly tokens: number;
}

export interface CompilePlan {
  /** Refusals: the writer applies nothing when this is non-empty. */
  readonly errors: readonly string[];
  readonly targets: readonly TargetId[];
  /** True when `[project].targets` chose them. */
  readonly explicitTargets: boolean;
  /** Owned files, in emit order. */
  readonly write: readonly PlannedFile[];
  /** Shared files: marked sections (AGENTS.md, CONVENTIONS.md) and JSON settings. */
  readonly merge: readonly PlannedFile[];
  readonly prune: readonly PlannedPrune[];
  readonly warnings: readonly string[];
  readonly notes: readonly string[];
  readonly failures: readonly FailedSkill[];
  /** Skills that load but were not delivered because their bytes are not the reviewed ones. */
  readonly withheld: readonly WithheldSkill[];
  /** Hand-written files in the way: nothing is written there. */
  readonly conflicts: readonly Conflict[];
  readonly compiled: number;
  readonly standing: readonly TargetStanding[];
}

// Importers reach the whole plan surface through this module, the prune step's part included.
export { managedDirs, MANAGED_DIRS, MANAGED_SHARED_FILES, type PlannedPrune } from './prune';
export { generatedBy };

// ---- memoisation: every function here is pure, so results are cached by input identity.
// A re-plan after one edit (a new Skill object for that skill, the same view of the files)
// recomputes only what the edit touched.

interface TargetOutput {
  /** Owned files carry the plan's entry for them, made once per emit so a re-plan allocates none. */
  readonly files: readonly { path: string; content: string | Uint8Array; merge: boolean; pending?: PendingFile }[];
  readonly warnings: readonly string[];
  readonly notes: readonly string[];
  readonly eagerTokens: number;
}
const preparedMemo = new WeakMap<Skill, ReturnType<typeof prepareSkill>>();
const emitMemo = new WeakMap<Skill, Map<string, TargetOutput>>();
const sameMemo = new WeakMap<
  ProjectFiles,
  Map<string, { disk: string | undefined; content: string; equal: boolean }>
>();
const docMemo = new WeakMap<ProjectFiles, Map<string, { text: string; keep: string; doc: SharedDoc }>>();

function prepared(skill: Skill): ReturnType<typeof prepareSkill> {
  let p = preparedMemo.get(skill);
  if (!p) preparedMemo.set(skill, (p = prepareSkill(skill)));
  return p;
}

function emitted(
  t: TargetDef,
  p: PreparedSkill,
  project: ProjectFiles,
  key: string,
  context: EmitContext,
): TargetOutput {
  let perSkill = emitMemo.get(p.skill);
  if (!perSkill) emitMemo.set(p.skill, (perSkill = new Map()));
  const hit = perSkill.get(key);
  if (hit) return hit;
  const out = t.emit(p, project, context);
  let eagerTokens = 0;
  const files = out.files.map((f) => {
    if (typeof f.content === 'string' && !f.bundled) eagerTokens += estimateTokens(f.content);
    const content = f.merge || f.bundled || typeof f.content !== 'string' ? f.content : withNewline(f.content);
    if (f.merge) return { path: f.path, content, merge: true };
    const dir = SKILL_DIRS.find((d) => f.path.startsWith(`${d}/${p.name}/`));
    const pending: PendingFile = { content, skill: p.name, unit: dir ? `${dir}/${p.name}` : f.path, folder: !!dir };
    if (f.executable) pending.executable = true;
    return { path: f.path, content, merge: false, pending };
  });
  const result: TargetOutput = { files, warnings: out.warnings, notes: out.notes, eagerTokens };
  perSkill.set(key, result);
  return result;
}

function baseDoc(project: ProjectFiles, path: string, keep: ReadonlySet<string>, keepKey: string): SharedDoc {
  let perView = docMemo.get(project);
  if (!perView) docMemo.set(project, (perView = new Map()));
  const text = project.read(path) ?? '';
  const hit = perView.get(path);
  if (hit && hit.text === text && hit.keep === keepKey) return hit.doc.clone();
  const doc = SharedDoc.parse(text, (n) => keep.has(n));
  perView.set(path, { text, keep: keepKey, doc });
  return doc.clone();
}

function byName(a: Skill, b: Skill): number {
  const x = a.manifest.skill.name;
  const y = b.manifest.skill.name;
  return x < y ? -1 : x > y ? 1 : 0;
}

function sameContent(project: ProjectFiles, path: string, content: string | Uint8Array): boolean {
  if (typeof content === 'string') {
    let perView = sameMemo.get(project);
    if (!perView) sameMemo.set(project, (perView = new Map()));
    const disk = project.read(path);
    const hit = perView.get(path);
    if (hit && hit.disk === disk && hit.content === content) return hit.equal;
    const equal = disk === content;
    perView.set(path, { disk, content, equal });
    return equal;
  }
  const cur = project.readBytes?.(path);
  if (!cur || cur.length !== content.length) return false;
  for (let i = 0; i < cur.length; i++) if (cur[i] !== content[i]) return false;
  return true;
}

/** A path the plan may touch: relative, '/'-separated, no '.', '..' or empty segments. */
export function isSafeRelative(path: string): boolean {
  return SAFE_RELATIVE.test(path);
}
/** Segments of anything but '/', '\\' and NUL, none of them empty, '.' or '..'. */
const SAFE_RELATIVE = /^(?!\.\.?(?:\/|$))[^/\\\0]+(?:\/(?!\.\.?(?:\/|$))[^/\\\0]+)*$/;

export function planCompile(input: CompileInput): CompilePlan {
  const { project, config } = input;
  const failures: FailedSkill[] = [...(input.failures ?? [])];
  const withheld = input.withheld ?? [];
  // A withheld skill is planned as if it were not installed, so its earlier output is pruned.
  const held = new Set(withheld.map((w) => w.name));
  const skills = (held.size ? input.skills.filter((s) => !held.has(s.manifest.skill.name)) : [...input.skills]).sort(
    byName,
  );
  const errors: string[] = [];
  const warnings: string[] = [];
  const notes: string[] = [];
  const empty = (targets: readonly TargetId[] = [], explicit = false): CompilePlan => ({
    errors,
    targets,
    explicitTargets: explicit,
    write: [],
    merge: [],
    prune: [],
    warnings,
    notes,
    failures,
    withheld,
    conflicts: [],
    compiled: 0,
    standing: [],
  });

  const selection = resolveTargets(project, config.targets);
  if (!selection.ok) {
    errors.push(selection.error.message);
    return empty();
  }
  const targets = selection.value.targets;
  const ids = targets.map((t) => t.id);
  if (targets.length === 0 && skills.length > 0) {
    errors.push(
      `no compile targets resolved, but ${skills.length} skill(s) are installed — refusing to compile (it would delete all generated output).\n  add a detectable agent dir (.claude/, .cursor/, …) or set [project].targets in kitbash.toml.`,
    );
    return empty(ids, selection.value.explicit);
  }

  // 1. Prepare every skill. A template error or a manifested budget overrun fails that skill
  // only: the others are written, its existing output is kept, and compile exits non-zero.
  const ready: PreparedSkill[] = [];
  for (const skill of skills) {
    const p = prepared(skill);
    if (!p.ok) {
      failures.push({ name: skill.manifest.skill.name, message: p.error.message });
      continue;
    }
    const { name } = p.value;
    const { budget, standing } = skill.manifest.context;
    const over: string[] = [];
    const bodyTokens = estimateTokens(p.value.body);
    if (bodyTokens > budget) over.push(`${name}: compiled body is ~${bodyTokens} tokens, over its budget of ${budget}`);
    const stubTokens = estimateTokens(standingStub(p.value.body));
    if (stubTokens > standing)
      over.push(`${name}: standing stub is ~${stubTokens} tokens, over its standing limit of ${standing}`);
    if (!skill.manifested)
      warnings.push(`${name}: unmanifested (SKILL.md only) — defaults applied, no permissions declared`);
    if (over.length && skill.manifested) {
      failures.push({ name, message: over.join('; ') });
      continue;
    }
    warnings.push(...over);
    ready.push(p.value);
  }
  const installed = new Set<string>([...skills.map((s) => s.manifest.skill.name), ...failures.map((f) => f.name)]);
  const failedNames = new Set(failures.map((f) => f.name));

  // 2. Emit per skill, per target, in emit order.
  const files = new Map<string, PendingFile>();
  const owners = new Map<string, string>();
  // Targets writing each path: nearly always one, so a short list rather than a Set per path.
  const writers = new Map<string, readonly TargetId[]>();
  const only = new Map(ids.map((id) => [id, [id] as const]));
  const newWarning = firstTime<string>();
  const newNote = firstTime<string>();
  const docs = new Map<string, SharedDoc>();
  const limitedSections = new Map([...readLimits(targets).keys()].map((path) => [path, [] as Section[]]));
  const standing = new Map<TargetId, number>(ids.map((id) => [id, 0]));
  const keepKey = [...installed].sort().join('\0');
  const context: EmitContext = { active: targets };
  const index = indexFolder(context);
  // The emit memo's key per target, made once: a key built per skill is a new string to hash each time.
  const emitKeys = new Map(targets.map((t) => [t.id, `${t.id}\0${t.emitFacts?.(project) ?? ''}\0${index ?? ''}`]));
  for (const p of ready) {
    for (const t of targets) {
      const out = emitted(t, p, project, emitKeys.get(t.id)!, context);
      // A target's note about the project (aider's wiring, say) comes with every skill's emit: said once.
      for (const w of out.warnings) if (newWarning(w)) warnings.push(w);
      for (const n of out.notes) if (newNote(n)) notes.push(n);
      for (const f of out.files) {
        if (!f.pending) {
          let doc = docs.get(f.path);
          if (!doc) {
            doc = baseDoc(project, f.path, installed, keepKey);
            docs.set(f.path, doc);
          }
          doc.upsert(p.name, f.content as string);
          limitedSections.get(f.path)?.push({ name: p.name, content: f.content as string });
          files.set(f.path, SECTION);
        } else {
          const prev = owners.get(f.path);
          if (prev !== undefined && prev !== p.name) {
            warnings.push(
              `conflict: "${prev}" and "${p.name}" both write ${f.path} — "${p.name}" wins. Rename the clashing trigger command or skill.`,
            );
          }
          owners.set(f.path, p.name);
          const w = writers.get(f.path);
          if (!w) writers.set(f.path, only.get(t.id)!);
          else if (!w.includes(t.id)) writers.set(f.path, [...w, t.id]);
          files.set(f.path, f.pending);
        }
      }
      standing.set(
        t.id,
        standing.get(t.id)! + (t.loading === 'eager' ? out.eagerTokens : estimateTokens(p.description)),
      );
    }
  }
  // Merged files: whether they change is known from the sections, and their size from the parts';
  // their text is joined only when read (AGENTS.md is megabytes at a few hundred eager skills,
  // and the docs are not touched after step 2).
  const lazyDocs = new Map<string, LazyDoc>();
  for (const [path, doc] of docs) {
    lazyDocs.set(path, { doc, changed: doc.dirty || !(project.read(path) ?? '').endsWith('\n') });
    files.set(path, SECTION);
  }

  // 2b. Always-loaded files past their readers' documented limit: cut to it, the skills left out named.
  warnings.push(...boundMergedFiles(targets, project, lazyDocs, limitedSections));

  // 2c. Each agent's skills listing: descriptions cut, or skills left out, at session start.
  for (const t of targets) {
    const r = listingReport(ready, t);
    if (r) warnings.push(...listingWarnings(r));
  }

  // 3. One `.agents/skills/` copy serves Copilot and Gemini too; targets say what that means for them.
  const agentsDirWritten = targets.some((t) => (AGENTS_DIR_TARGETS as readonly string[]).includes(t.id));
  for (const t of targets) notes.push(...(t.planNotes?.(ready, { agentsDirWritten }) ?? []));
  if (agentsDirWritten) {
    for (const alias of VENDOR_NEUTRAL_ALIASES) {
      if (!ids.includes(alias.id)) continue;
      const dropped = [...files.keys()].filter((p) => p.startsWith(`${alias.dir}/`));
      for (const p of dropped) files.delete(p);
      if (dropped.length)
        notes.push(
          `${alias.id}: served by .agents/skills/, which it also reads — ${alias.dir}/ not written, so the skill is not duplicated.`,
        );
    }
  }

  // 3b. Never overwrite what the user wrote: a hand-written file or skill folder in the way is left alone.
  const trusted = trustedSkills(
    ready.map((p) => p.name),
    files,
    input.written,
  );
  const inTheWay = handWritten(project, files, writers, trusted);
  for (const c of inTheWay) {
    warnings.push(
      `${c.skill} → ${c.targets.join(', ')}: ${c.path} was not written by Skillsmith (no "${GENERATED_MARK}" header) — left alone, so ${c.targets.length === 1 ? 'this agent does' : 'these agents do'} not get the installed skill. Adopt it (skillsmith import --write), rename one of them, or remove ${c.path}.`,
    );
  }

  // 4. Containment (lexical; the writer re-checks with symlinks resolved).
  const escaping = [...files.keys()].filter((p) => !isSafeRelative(p));
  if (escaping.length) {
    for (const p of escaping) errors.push(`refusing to write outside the project: ${p}`);
    errors.push("a skill's declared name or trigger command produced an escaping path — nothing was written.");
    return empty(ids, selection.value.explicit);
  }

  // 5. MCP: servers across all skills, once per target.
  const { servers, conflicts } = collectServers(skills);
  if (conflicts.length) {
    errors.push(...conflicts);
    return empty(ids, selection.value.explicit);
  }
  if (servers.length) {
    const report = toolBudget(servers, config.policy?.maxMcpTools ?? DEFAULT_MAX_MCP_TOOLS);
    notes.push(report.line);
    warnings.push(...report.warnings);
    const strictMcp = skills.some((s) => s.manifest.mcp.onUnsupported === 'error');
    const unsupported: string[] = [];
    for (const t of targets) {
      const out = emitMcp(t, servers, (p) => project.read(p));
      for (const f of out.files)
        files.set(f.path, { content: f.content, ...(f.merged ? { merge: 'settings' as const } : {}) });
      warnings.push(...out.warnings);
      unsupported.push(...out.unsupported);
    }
    if (strictMcp && unsupported.length) {
      errors.push(...unsupported);
      return empty(ids, selection.value.explicit);
    }
    warnings.push(...unsupported);
  }

  // 6. Project-level files a target declares (the Agent Plugins package manifest).
  if (ready.length)
    for (const t of targets) for (const f of t.projectFiles?.(project) ?? []) files.set(f.path, { content: f.content });

  // 6b. Each agent's script guard, in step with the skills delivered there (SPEC D200).
  const guards = planScriptGuards(targets, files.keys(), project, enforceInAgent(config));
  if (guards.errors.length) {
    errors.push(...guards.errors);
    return empty(ids, selection.value.explicit);
  }
  for (const f of guards.merge) files.set(f.path, { content: f.content, merge: 'settings' });
  notes.push(...guards.notes);

  const write: PlannedFile[] = [];
  const merge: PlannedFile[] = [];
  for (const [path, f] of files) {
    const lazy = lazyDocs.get(path);
    if (lazy) {
      merge.push(lazySection(path, lazy));
      continue;
    }
    if (f.skill !== undefined && trusted.has(f.skill)) {
      write.push(plannedFile(path, f, false));
      continue;
    }
    const modeChanged =
      project.isExecutable !== undefined &&
      typeof f.content !== 'string' &&
      (f.executable === true) !== project.isExecutable(path);
    (f.merge ? merge : write).push(plannedFile(path, f, modeChanged || !sameContent(project, path, f.content)));
  }

  // 7. Prune: what the previous compile wrote that this plan no longer produces.
  const inStep = (rel: string) => trusted.has(files.get(rel)?.skill ?? '\0');
  const prune = [...planPrune(project, files, failedNames, inStep), ...guards.prune];

  const standingList: TargetStanding[] = targets.map((t: TargetDef) => ({
    target: t.id,
    loading: t.loading,
    tokens: standing.get(t.id)!,
  }));
  void plural;
  return {
    errors,
    targets: ids,
    explicitTargets: selection.value.explicit,
    write,
    merge,
    prune,
    warnings,
    notes,
    failures,
    withheld,
    conflicts: inTheWay,
    compiled: ready.length,
    standing: standingList,
  };
}

/** Skill folders that targets write into (`.claude/skills`, `.agents/skills`, …), from the target modules. */
const SKILL_DIRS: readonly string[] = [...new Set(TARGETS.flatMap((t) => (t.skillDir ? [t.skillDir] : [])))];

/**
 * Planned outputs that would replace something the user wrote; they are taken out of `files`.
 * A skill folder is the unit for skill-dir targets (its SKILL.md lacks the generated header,
 * or a file there is not one compile delivered); any other owned file is its own unit.
 */
function handWritten(
  project: ProjectFiles,
  files: Map<string, PendingFile>,
  writers: ReadonlyMap<string, readonly TargetId[]>,
  trusted: ReadonlySet<string>,
): Conflict[] {
  // Only units with something on disk are gathered (null: nothing there) — in a project not yet compiled, none.
  const units = new Map<string, Unit | null>();
  for (const [path, f] of files) {
    if (f.skill === undefined || f.unit === undefined || trusted.has(f.skill)) continue;
    let u = units.get(f.unit);
    if (u === undefined) {
      u = project.exists(f.unit) ? { skill: f.skill, paths: [], entries: [], folder: f.folder === true } : null;
      units.set(f.unit, u);
    }
    u?.paths.push(path);
    u?.entries.push(f);
  }
  let memo = project.snapshot ? verdicts.get(project) : undefined;
  if (project.snapshot && !memo) verdicts.set(project, (memo = new Map()));
  const out: Conflict[] = [];
  for (const [key, u] of units) {
    if (!u) continue;
    let verdict = memo?.get(key);
    if (!verdict || !sameEntries(verdict.entries, u.entries)) {
      verdict = { entries: u.entries, inTheWay: unitInTheWay(project, key, u, files) };
      memo?.set(key, verdict);
    }
    if (!verdict.inTheWay) continue;
    for (const p of u.paths) files.delete(p);
    const ids = new Set<TargetId>();
    for (const p of u.paths) for (const id of writers.get(p) ?? []) ids.add(id);
    out.push({ skill: u.skill, path: key, targets: [...ids] });
  }
  return out;
}

/** A skill folder (or single file) some target writes, with the plan's entries under it. */
interface Unit {
  readonly skill: string;
  readonly paths: string[];
  readonly entries: PendingFile[];
  readonly folder: boolean;
}

/**
 * Per snapshot view (ProjectFiles.snapshot), each unit's verdict and the entries it was made
 * for: the verdict depends only on the view and those entries, so a re-plan after one edit
 * decides again only the edited skill's units (at 1,000 skills, 3,300 of them read and parsed).
 */
const verdicts = new WeakMap<ProjectFiles, Map<string, { entries: readonly PendingFile[]; inTheWay: boolean }>>();

const sameEntries = (a: readonly PendingFile[], b: readonly PendingFile[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

function unitInTheWay(project: ProjectFiles, key: string, u: Unit, files: Map<string, PendingFile>): boolean {
  if (!u.folder) {
    const text = project.read(key);
    return text !== undefined
      ? generatedBy(text) === undefined && !sameContent(project, key, files.get(key)!.content)
      : true;
  }
  const md = project.read(`${key}/SKILL.md`);
  if (project.exists(`${key}/SKILL.md`) && (md === undefined || generatedBy(md) === undefined)) return true;
  // A generated folder (or one without SKILL.md): a file there that compile did not deliver, under a name the
  // skill delivers, is the user's.
  const recorded = readDeliveryRecord(project.read(`${key}/${DELIVERY_RECORD}`), md ?? '');
  return u.paths.some((p) => {
    const rel = p.slice(key.length + 1);
    if (rel === 'SKILL.md' || rel === DELIVERY_RECORD || recorded.has(rel) || !project.exists(p)) return false;
    return !sameContent(project, p, files.get(p)!.content);
  });
}

/** A file as the plan gathers it, before it is compared with the disk. Never changed once made. */
interface PendingFile {
  content: string | Uint8Array;
  skill?: string;
  merge?: 'section' | 'settings';
  executable?: true;
  /** A skill's owned file: what is left alone when the user wrote it — its skill folder, or the file. */
  unit?: string;
  /** Whether `unit` is a skill folder of a skill-dir target. */
  folder?: boolean;
}

/** Every merged-section file's entry while the plan gathers files (its text is the doc's). */
const SECTION: PendingFile = Object.freeze({ content: '', merge: 'section' });

/** The plan's entries by the file they were made from: a re-plan reuses those of unchanged skills. */
const plannedMemo = new WeakMap<PendingFile, { changed?: PlannedFile; same?: PlannedFile }>();

function plannedFile(path: string, f: PendingFile, changed: boolean): PlannedFile {
  let memo = plannedMemo.get(f);
  if (!memo) plannedMemo.set(f, (memo = {}));
  const hit = changed ? memo.changed : memo.same;
  if (hit?.path === path) return hit;
  // Assigned one by one, not spread: a plan holds thousands, and V8 copies a spread slowly.
  const planned: { -readonly [K in keyof PlannedFile]: PlannedFile[K] } = { path, content: f.content, changed };
  if (f.skill) planned.skill = f.skill;
  if (f.merge) planned.merge = f.merge;
  if (f.executable) planned.executable = true;
  if (changed) memo.changed = planned;
  else memo.same = planned;
  return planned;
}

/** A predicate true the first time it sees each value. */
function firstTime<T>(): (value: T) => boolean {
  const seen = new Set<T>();
  return (value) => !seen.has(value) && !!seen.add(value);
}

/** A merged file's sections, and whether they change it. */
type LazyDoc = MergedDoc;
type Section = { name: string; content: string };

/** A merged markdown file whose content is joined from its sections when first read. */
function lazySection(path: string, lazy: LazyDoc): PlannedFile {
  let text: string | undefined;
  return {
    path,
    changed: lazy.changed,
    merge: 'section',
    get content(): string {
      if (text === undefined) text = withNewline(lazy.doc.toString());
      return text;
    },
  };
}

/** Summary words used by the CLI and the desktop. */
export function summarize(plan: Pick<CompilePlan, 'compiled' | 'targets'>): string {
  return `compiled ${plural(plan.compiled, 'skill')} for ${plural(plan.targets.length, 'target')}`;
}

export { TARGETS };
