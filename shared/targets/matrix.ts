/**
 * The compatibility matrix: for every (skill, target), whether the agent gets the skill
 * as authored (full), a weaker version of it (degraded), or would drop or ignore it
 * (unsupported) — each with machine-readable reasons.
 */
import type { Skill } from '../ksf/model';
import { estimateTokens } from '../ksf/tokens';
import { MCP_GAPS, varRefs } from '../mcp/emit';
import { aiderWiringNote } from './aider';
import { fileTokens, isCopiedScript } from './common';
import { EMPTY_PROJECT } from './cost';
import { prepareSkill } from './prepare';
import { TARGETS } from './registry';
import type { PreparedSkill, ProjectView, TargetDef, TargetId } from './types';

export type CellStatus = 'full' | 'degraded' | 'unsupported';

export interface Reason {
  /** Stable id: missing-capability, zed-name, zed-description-empty, zed-description-bytes, cline-lazy-only, eager-only, mcp-no-surface, mcp-skipped, aider-not-wired, empty-description, does-not-compile. */
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

/** One cell. `prepared` is undefined when the skill's templates do not resolve. */
export function matrixCell(skill: Skill, prepared: PreparedSkill | undefined, target: TargetDef, project: ProjectView = EMPTY_PROJECT, why?: string): Cell {
  const name = skill.manifest.skill.name;
  const degraded: Reason[] = [];
  const dropped: Reason[] = [];
  if (!prepared) dropped.push({ code: 'does-not-compile', message: `${name} does not compile: ${why ?? 'its templates do not resolve'}` });
  for (const cap of skill.manifest.targets.requires) {
    if (!(target.capabilities as readonly string[]).includes(cap)) {
      degraded.push({ code: 'missing-capability', message: `requires "${cap}" — ${target.id} does not deliver it; compiled instruction-only` });
    }
  }
  for (const v of target.constraints(skill)) (v.drops ? dropped : degraded).push({ code: v.code, message: v.message });
  if (DESCRIPTION_TRIGGERED.includes(target.id) && !skill.manifest.skill.description.trim()) {
    dropped.push({ code: 'empty-description', message: `${target.id} picks the rule by its description, which is empty — the rule never triggers` });
  }
  if (target.loading === 'eager' && skill.manifest.context.disclosure === 'lazy') {
    const tokens = prepared ? fileTokens(target.emit(prepared, project).files.filter((f) => !isCopiedScript(f.path))) : estimateTokens(skill.body);
    degraded.push({ code: 'eager-only', message: `${target.id} loads everything eagerly: ~${tokens} tokens every session instead of on demand (declared standing limit ${skill.manifest.context.standing})` });
  }
  if (target.id === 'aider' && aiderWiringNote(project) !== undefined) {
    dropped.push({ code: 'aider-not-wired', message: 'aider reads CONVENTIONS.md only through "read:" in .aider.conf.yml (or --read) — as configured, the skill is never in context' });
  }
  const servers = skill.manifest.mcp.servers;
  if (servers.length) {
    const gap = MCP_GAPS[target.id];
    const strict = skill.manifest.mcp.onUnsupported === 'error';
    if (gap) {
      (strict ? dropped : degraded).push({
        code: 'mcp-no-surface',
        message: `${servers.length} MCP server(s) not delivered (${gap.reason}: ${gap.detail})${strict ? ' — on_unsupported = "error" makes compile refuse' : ''}`,
      });
    } else if (target.id === 'zed' || target.id === 'agent-plugins') {
      const skipped = servers.filter((s) => varRefs(s).length > 0).map((s) => s.name);
      if (skipped.length) degraded.push({ code: 'mcp-skipped', message: `MCP server(s) ${skipped.join(', ')} use \${VAR} references, which ${target.id} cannot express — not written` });
    }
  }
  const status: CellStatus = dropped.length ? 'unsupported' : degraded.length ? 'degraded' : 'full';
  return { skill: name, target: target.id, status, reasons: [...dropped, ...degraded] };
}

/** The grid over skills (in name order) × targets (emit order; all eleven by default). */
export function compatibilityMatrix(skills: readonly Skill[], targets: readonly TargetDef[] = TARGETS, project: ProjectView = EMPTY_PROJECT): Matrix {
  const sorted = [...skills].sort((a, b) => (a.manifest.skill.name < b.manifest.skill.name ? -1 : a.manifest.skill.name > b.manifest.skill.name ? 1 : 0));
  const cells: Cell[] = [];
  for (const s of sorted) {
    const p = prepareSkill(s);
    for (const t of targets) cells.push(matrixCell(s, p.ok ? p.value : undefined, t, project, p.ok ? undefined : p.message));
  }
  return { skills: sorted.map((s) => s.manifest.skill.name), targets: targets.map((t) => t.id), cells };
}
