/**
 * The compatibility matrix: for every (skill, target), whether the agent gets the skill
 * as authored (full), a weaker version of it (degraded), or would drop or ignore it
 * (unsupported) — each with machine-readable reasons.
 */
import { plural } from '../text/format';
import type { Skill } from '../ksf/model';
import { estimateTokens } from '../ksf/tokens';
import { MCP_GAPS, varRefs } from '../mcp/emit';
import { aiderWiringNote } from './aider';
import { bundledFiles, fileTokens, handWrittenIn, indexFolder, userOnly } from './common';
import { utf8Length } from '../text/utf8';
import { EMPTY_PROJECT } from './cost';
import { emitOnce, type EmitOf } from './emit-once';
import { prepareSkill } from './prepare';
import { detectTargets, TARGETS } from './registry';
import { boundDoc, SharedDoc } from '../compile/sections';
import type { WithheldSkill } from '../compile/deliver';
import type { EmitContext, PreparedSkill, ProjectFiles, TargetDef, TargetId } from './types';

export type CellStatus = 'full' | 'degraded' | 'unsupported';

export interface Reason {
  /**
   * Stable id: missing-capability, zed-name, zed-description-empty, zed-description-bytes,
   * cline-lazy-only, eager-only, mcp-no-surface, mcp-skipped, aider-not-wired, empty-description,
   * does-not-compile, bundled-not-delivered, description-over-limit, user-only-unsupported,
   * always-loaded-budget, hand-written, not-delivered.
   */
  readonly code: string;
  readonly message: string;
}

export interface Cell {
  readonly skill: string;
  readonly target: TargetId;
  readonly status: CellStatus;
  readonly reasons: readonly Reason[];
}

export interface Matrix {
  readonly skills: readonly string[];
  readonly targets: readonly TargetId[];
  readonly cells: readonly Cell[];
}

/** Targets whose rule is only triggered by its description: without one it is inert. */
const DESCRIPTION_TRIGGERED: readonly TargetId[] = ['cursor', 'windsurf'];

/** How one cell is graded beyond the skill and the target. */
export interface CellOptions {
  /** Why the skill does not compile, when `prepared` is undefined. */
  readonly why?: string;
  /** The compile's active targets (an always-loaded file indexes the skill folder when one serves it). */
  readonly context?: EmitContext;
  /** Why a bounded always-loaded file has no room for the skill (alwaysLoadedLeftOut). */
  readonly leftOut?: readonly Reason[];
  /** The report's shared emits (emitOnce), so the cell is graded on the emit the rest of it read. */
  readonly emit?: EmitOf;
}

/** One cell. `prepared` is undefined when the skill's templates do not resolve. */
export function matrixCell(
  skill: Skill,
  prepared: PreparedSkill | undefined,
  target: TargetDef,
  project: ProjectFiles = EMPTY_PROJECT,
  { why, context, leftOut = [], emit = emitOnce(project, context) }: CellOptions = {},
): Cell {
  const name = skill.manifest.skill.name;
  const degraded: Reason[] = [];
  const dropped: Reason[] = [];
  if (!prepared)
    dropped.push({
      code: 'does-not-compile',
      message: `${name} does not compile: ${why ?? 'its templates do not resolve'}`,
    });
  for (const cap of skill.manifest.targets.requires) {
    if (!(target.capabilities as readonly string[]).includes(cap)) {
      degraded.push({
        code: 'missing-capability',
        message: `requires "${cap}" — ${target.id} does not deliver it; compiled instruction-only`,
      });
    }
  }
  for (const v of target.constraints(skill)) (v.drops ? dropped : degraded).push({ code: v.code, message: v.message });
  if (DESCRIPTION_TRIGGERED.includes(target.id) && !skill.manifest.skill.description.trim()) {
    dropped.push({
      code: 'empty-description',
      message: `${target.id} picks the rule by its description, which is empty — the rule never triggers`,
    });
  }
  const emitted = prepared ? emit(prepared, target) : undefined;
  dropped.push(...leftOut);
  const inTheWay = emitted ? handWrittenIn(project, emitted.files) : undefined;
  if (inTheWay)
    dropped.push({
      code: 'hand-written',
      message: `${inTheWay} was written by hand (no generated header) — compile leaves it alone, so ${target.id} does not get this skill; adopt it (import --write), rename, or remove it`,
    });
  // An always-loaded index points at the skill folder, where the bundled files are.
  const indexed = target.alwaysLoaded.length > 0 && indexFolder(context) !== undefined;
  if (prepared && target.skillDir === undefined && !indexed) {
    const bundled = bundledFiles(prepared).filter((b) => !authoringOnly(prepared, b.rel));
    if (bundled.length) {
      const shown = bundled
        .slice(0, 3)
        .map((b) => b.rel)
        .join(', ');
      degraded.push({
        code: 'bundled-not-delivered',
        message: `${plural(bundled.length, 'bundled file')} (${shown}${bundled.length > 3 ? ', …' : ''}) ${bundled.length === 1 ? 'is' : 'are'} not delivered — ${target.id} gets only the instructions, so links to ${bundled.length === 1 ? 'it is' : 'them are'} dead`,
      });
    }
  }
  const limit = target.descriptionLimit;
  if (limit) {
    const { description } = skill.manifest.skill;
    const size = limit.unit === 'bytes' ? utf8Length(description) : [...description].length;
    if (size > limit.max)
      (limit.drops ? dropped : degraded).push({
        code: 'description-over-limit',
        message: `description is ${size} ${limit.unit}, over ${limit.max} (${limit.source})`,
      });
  }
  if (prepared && userOnly(prepared) && !target.userInvocation) {
    if (target.loading === 'eager')
      dropped.push({
        code: 'user-only-unsupported',
        message: `disable-model-invocation is set and ${target.id} is always loaded — not pasted there, so this agent does not get the skill`,
      });
    else
      degraded.push({
        code: 'user-only-unsupported',
        message: `disable-model-invocation is set, but ${target.agent} does not honour it — the model may invoke the skill on its own`,
      });
  }
  if (target.loading === 'eager' && skill.manifest.context.disclosure === 'lazy' && !(prepared && userOnly(prepared))) {
    const tokens = emitted ? fileTokens(emitted.files) : estimateTokens(skill.body);
    degraded.push({
      code: 'eager-only',
      message: `${target.id} loads everything eagerly: ~${tokens} tokens every session instead of on demand (declared standing limit ${skill.manifest.context.standing})`,
    });
  }
  if (target.id === 'aider' && aiderWiringNote(project) !== undefined) {
    dropped.push({
      code: 'aider-not-wired',
      message:
        'aider reads CONVENTIONS.md only through "read:" in .aider.conf.yml (or --read) — as configured, the skill is never in context',
    });
  }
  const servers = skill.manifest.mcp.servers;
  if (servers.length) {
    const gap = MCP_GAPS[target.id];
    const strict = skill.manifest.mcp.onUnsupported === 'error';
    if (gap) {
      (strict ? dropped : degraded).push({
        code: 'mcp-no-surface',
        message: `${plural(servers.length, 'MCP server')} not delivered (${gap.reason}: ${gap.detail})${strict ? ' — on_unsupported = "error" makes compile refuse' : ''}`,
      });
    } else if (target.id === 'zed' || target.id === 'agent-plugins') {
      const skipped = servers.filter((s) => varRefs(s).length > 0).map((s) => s.name);
      if (skipped.length)
        degraded.push({
          code: 'mcp-skipped',
          message: `MCP ${skipped.length === 1 ? 'server' : 'servers'} ${skipped.join(', ')} use${skipped.length === 1 ? 's' : ''} \${VAR} references, which ${target.id} cannot express — not written`,
        });
    }
  }
  const status: CellStatus = dropped.length ? 'unsupported' : degraded.length ? 'degraded' : 'full';
  return { skill: name, target: target.id, status, reasons: [...dropped, ...degraded] };
}

/**
 * The grid over skills (in name order) × targets (emit order; all eleven by default).
 * `active`: the targets the project compiles for (detected by default) — they decide, e.g.,
 * whether AGENTS.md carries bodies or an index. `withheld`: skills compile does not deliver
 * (shared/compile/deliver.ts) — no agent gets them, so each of their cells is unsupported.
 */
export function compatibilityMatrix(
  skills: readonly Skill[],
  targets: readonly TargetDef[] = TARGETS,
  project: ProjectFiles = EMPTY_PROJECT,
  active: readonly TargetDef[] = detectTargets(project),
  withheld: readonly WithheldSkill[] = [],
): Matrix {
  const held = new Map(withheld.map((w) => [w.name, w]));
  const sorted = [...skills].sort((a, b) =>
    a.manifest.skill.name < b.manifest.skill.name ? -1 : a.manifest.skill.name > b.manifest.skill.name ? 1 : 0,
  );
  const context: EmitContext = { active };
  const prepared = sorted.map((s) => prepareSkill(s));
  // A withheld skill has no section in the always-loaded files, so it takes none of their budget.
  const ready = prepared.flatMap((p, i) => (p.ok && !held.has(sorted[i]!.manifest.skill.name) ? [p.value] : []));
  const emit = emitOnce(project, context);
  const budgets = new Map(targets.map((t) => [t.id, alwaysLoadedLeftOut(t, ready, project, context, emit)]));
  const cells: Cell[] = [];
  sorted.forEach((s, i) => {
    const p = prepared[i]!;
    const w = held.get(s.manifest.skill.name);
    for (const t of targets) {
      const cell = matrixCell(s, p.ok ? p.value : undefined, t, project, {
        why: p.ok ? undefined : p.error.message,
        context,
        leftOut: budgets.get(t.id)?.get(s.manifest.skill.name),
        emit,
      });
      cells.push(w ? notDelivered(cell, w) : cell);
    }
  });
  return { skills: sorted.map((s) => s.manifest.skill.name), targets: targets.map((t) => t.id), cells };
}

/** A withheld skill's cell: unsupported, the reason first, what the agent would otherwise get after it. */
export function notDelivered(cell: Cell, w: WithheldSkill): Cell {
  return {
    ...cell,
    status: 'unsupported',
    reasons: [{ code: 'not-delivered', message: `not delivered: ${w.message} — ${w.forward}` }, ...cell.reasons],
  };
}

/**
 * The skills an always-loaded file has no room for, as compile bounds it (spec D221): each
 * one's reason names the size the file would have grown to and its readers' limit.
 */
export function alwaysLoadedLeftOut(
  target: TargetDef,
  skills: readonly PreparedSkill[],
  project: ProjectFiles,
  context: EmitContext,
  emit: EmitOf = emitOnce(project, context),
): Map<string, Reason[]> {
  const out = new Map<string, Reason[]>();
  for (const a of target.alwaysLoaded) {
    const sections = skills.flatMap((p) =>
      emit(p, target)
        .files.filter((f) => f.merge && f.path === a.path)
        .map((f) => ({ name: p.name, content: f.content as string })),
    );
    const bounded = boundDoc(
      SharedDoc.parse(project.read(a.path) ?? '', () => false),
      sections,
      a.maxBytes,
    );
    for (const name of bounded.left)
      out.set(name, [
        ...(out.get(name) ?? []),
        {
          code: 'always-loaded-budget',
          message: `not written to ${a.path}: with every skill it would be ${bounded.unbounded} bytes, over the ${a.maxBytes}-byte limit of its readers (${a.source}); the skills that fit are written, this one is not`,
        },
      ]);
  }
  return out;
}

/**
 * Files of a KSF skill the agent never reads itself: `prompts/` are inlined into the body
 * where `{{prompt.x}}` names them, `evals/` and `fixtures/` feed Skillsmith's eval runner. A
 * rule-file target missing them still has everything the skill tells the agent to use. A
 * bare skill has no such convention, so every bundled file counts there.
 */
function authoringOnly(p: PreparedSkill, rel: string): boolean {
  return p.skill.manifested && /^(prompts|evals|fixtures)\//.test(rel);
}
