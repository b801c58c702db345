/**
 * The cost chart's data, pure: per target, the skills that cost the most (a readable number
 * of segments) and one "N others" segment for the rest, and a colour per skill that comes
 * from its name alone — the same skill has the same colour in every project, whatever was
 * installed before it.
 */
import type { SkillCost } from '../../../../shared/ipc/channels/reports';
import type { TargetDef, TargetId } from '../../../../shared/targets';

/** What the chart and the per-skill table both show: these skills on these targets. */
export interface CostPanelProps {
  readonly skills: readonly SkillCost[];
  readonly targets: readonly TargetDef[];
  readonly active: readonly TargetId[];
  /** The skill whose breakdown is open. */
  readonly selected: string | undefined;
}

/** Segments per target before the rest is grouped. */
export const TOP_SKILLS = 8;

export interface Segment {
  readonly skill: string;
  readonly tokens: number;
}

export interface ChartRow {
  readonly target: string;
  /** Every skill's standing tokens on this target (skills that do not compile count 0). */
  readonly total: number;
  /** The largest costs, largest first (plus `pin` when it has a cost here). */
  readonly segments: readonly Segment[];
  /** Everything else, as one segment. */
  readonly others: { readonly count: number; readonly tokens: number };
}

export function chartRows(
  skills: readonly SkillCost[],
  targets: readonly string[],
  opts: { top?: number; pin?: string } = {},
): ChartRow[] {
  const top = opts.top ?? TOP_SKILLS;
  return targets.map((target) => {
    const costs = skills
      .map((s) => ({ skill: s.skill, tokens: s.perTarget[target] ?? 0 }))
      .filter((c) => c.tokens > 0)
      .sort((a, b) => b.tokens - a.tokens || (a.skill < b.skill ? -1 : 1));
    let shown = costs.slice(0, top);
    // The skill the user is looking at is drawn on its own even when it is small.
    const pinned = opts.pin === undefined ? undefined : costs.find((c) => c.skill === opts.pin);
    if (pinned && !shown.includes(pinned)) shown = [...shown, pinned];
    const rest = costs.filter((c) => !shown.includes(c));
    return {
      target,
      total: costs.reduce((n, c) => n + c.tokens, 0),
      segments: shown,
      others: { count: rest.length, tokens: rest.reduce((n, c) => n + c.tokens, 0) },
    };
  });
}

/** The skills that have a segment in any row, the costliest first: the legend. */
export function legendSkills(rows: readonly ChartRow[]): string[] {
  const peak = new Map<string, number>();
  for (const r of rows) for (const s of r.segments) peak.set(s.skill, Math.max(peak.get(s.skill) ?? 0, s.tokens));
  return [...peak].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([s]) => s);
}

/** How many skills fall into no row's segments (the legend's "N others"). */
export function othersCount(skills: readonly SkillCost[], rows: readonly ChartRow[]): number {
  const shown = new Set(rows.flatMap((r) => r.segments.map((s) => s.skill)));
  return skills.filter((s) => !shown.has(s.skill)).length;
}

/** FNV-1a over the UTF-16 code units: a small, stable hash of a name. */
function hash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A skill's colour, from its name only: any of 360 hues, at one of three lightnesses and two saturations. */
export function skillColor(name: string): string {
  const h = hash(name);
  const hue = h % 360;
  const light = [46, 56, 66][(h >>> 9) % 3]!;
  const sat = (h >>> 11) % 2 === 0 ? 58 : 72;
  return `hsl(${hue} ${sat}% ${light}%)`;
}
