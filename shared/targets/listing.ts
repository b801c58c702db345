/**
 * What each agent lists at session start (issue 13 item 8): descriptions share a documented
 * character budget (Claude Code: about 30,000 characters, measured; Codex: 2% of its model's
 * window, shared evenly), so past it descriptions are cut, skills named without one or left out
 * of the listing before the user ever asks for them. Figures come from each target module's
 * `listingBudget`.
 */
import { plural } from '../text/format';
import { userOnly } from './common';
import type { ListingBudget, PreparedSkill, TargetDef, TargetId } from './types';

export interface ListingReport {
  readonly target: TargetId;
  /** Characters the listed descriptions take (after per-skill truncation), and the budget. */
  readonly usedChars: number;
  readonly totalChars?: number;
  readonly perSkillChars?: number;
  /** Skills whose description is cut in the listing. */
  readonly truncated: readonly string[];
  /** Skills left out of the listing: the agent does not know they exist until named. */
  readonly dropped: readonly string[];
  /** Skills listed by name alone: the model sees no description to pick them by. */
  readonly nameOnly: readonly string[];
  readonly source: string;
}

/** An entry's characters besides its description, where the target does not say: name, separator, line break. */
const DEFAULT_ENTRY: NonNullable<ListingBudget['entryChars']> = { fixed: 4, perName: 1 };

/** The listing a target's agent builds from these skills (name order), or undefined when it documents no budget. */
export function listingReport(skills: readonly PreparedSkill[], target: TargetDef): ListingReport | undefined {
  const b = target.listingBudget;
  if (!b) return undefined;
  const listed = skills
    .filter((p) => !(target.userInvocation && userOnly(p)))
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  if (b.overflow === 'shorten') return shortened(listed, target.id, b);
  if (b.overflow === 'name-only') return namesKept(listed, target.id, b);
  const e = b.entryChars ?? DEFAULT_ENTRY;
  let used = 0;
  const truncated: string[] = [];
  const dropped: string[] = [];
  for (const p of listed) {
    const entry = e.fixed + e.perName * p.name.length + cappedLength(p, b, truncated);
    if (b.totalChars !== undefined && used + entry > b.totalChars) dropped.push(p.name);
    else used += entry;
  }
  return report(target.id, b, b.perSkillChars, { usedChars: used, truncated, dropped, nameOnly: [] });
}

/** A description's length as listed: cut to the per-skill cap, and the skill noted when it is. */
function cappedLength(p: PreparedSkill, b: ListingBudget, truncated: string[]): number {
  const len = [...p.description].length;
  if (b.perSkillChars === undefined || len <= b.perSkillChars) return len;
  truncated.push(p.name);
  return b.perSkillChars;
}

function report(
  target: TargetId,
  b: ListingBudget,
  perSkillChars: number | undefined,
  found: Pick<ListingReport, 'usedChars' | 'truncated' | 'dropped' | 'nameOnly'>,
): ListingReport {
  return {
    target,
    usedChars: found.usedChars,
    ...(b.totalChars !== undefined ? { totalChars: b.totalChars } : {}),
    ...(perSkillChars !== undefined ? { perSkillChars } : {}),
    truncated: found.truncated,
    dropped: found.dropped,
    nameOnly: found.nameOnly,
    source: b.source,
  };
}

/**
 * An agent that names every skill (Claude Code, measured): its own skills' lines first, then
 * every project skill's `- name` line, then descriptions in name order while the listing stays
 * within the budget; a description that does not fit leaves its skill named only, and shorter
 * ones after it may still fit.
 */
function namesKept(listed: readonly PreparedSkill[], target: TargetId, b: ListingBudget): ListingReport {
  const e = b.entryChars ?? DEFAULT_ENTRY;
  const total = b.totalChars ?? Infinity;
  // A `- name` line is the entry without its description and the `: ` before it.
  const bare = (name: string): number => e.fixed - 2 + e.perName * name.length;
  let used =
    (b.builtIn ?? []).reduce((n, s) => n + e.fixed + e.perName * s.name.length + s.descriptionChars, 0) +
    listed.reduce((n, p) => n + bare(p.name), 0);
  const truncated: string[] = [];
  const nameOnly: string[] = [];
  for (const p of listed) {
    const len = cappedLength(p, b, truncated);
    if (used + len + 2 > total) nameOnly.push(p.name);
    else used += len + 2;
  }
  return report(target, b, b.perSkillChars, { usedChars: used, truncated, dropped: [], nameOnly });
}

/**
 * An agent that shortens rather than drops (Codex): the agent's own skills first, then the
 * project's; an entry stays while its bare line fits, and the room left is shared evenly, so
 * every description longer than the share is cut to it. `usedChars` counts the agent's own
 * entries too, since they spend the same budget; `perSkillChars` is the share, when it cuts.
 */
function shortened(listed: readonly PreparedSkill[], target: TargetId, b: ListingBudget): ListingReport {
  const e = b.entryChars ?? DEFAULT_ENTRY;
  const total = b.totalChars ?? Infinity;
  const entries = [
    ...(b.builtIn ?? []).map((s) => ({ name: s.name, len: s.descriptionChars, ours: false })),
    ...listed.map((p) => ({ name: p.name, len: [...p.description].length, ours: true })),
  ];
  const kept: typeof entries = [];
  const dropped: string[] = [];
  let bare = 0;
  for (const x of entries) {
    const cost = e.fixed + e.perName * x.name.length;
    if (bare + cost <= total) {
      bare += cost;
      kept.push(x);
    } else if (x.ours) dropped.push(x.name);
  }
  const share = evenShare(
    kept.map((x) => x.len),
    total - bare,
  );
  const truncated = kept.filter((x) => x.ours && x.len > share).map((x) => x.name);
  return report(target, b, Number.isFinite(share) ? share : undefined, {
    usedChars: bare + kept.reduce((n, x) => n + Math.min(x.len, share), 0),
    truncated,
    dropped,
    nameOnly: [],
  });
}

/** The largest share s with the sum of min(length, s) within `room`; Infinity when everything fits. */
function evenShare(lengths: readonly number[], room: number): number {
  const sorted = [...lengths].sort((x, y) => x - y);
  let rest = room;
  for (let i = 0; i < sorted.length; i++) {
    const left = sorted.length - i;
    if (sorted[i]! * left > rest) return Math.max(0, Math.floor(rest / left));
    rest -= sorted[i]!;
  }
  return Infinity;
}

/** One warning line per problem in a report (none when everything fits). */
export function listingWarnings(r: ListingReport): string[] {
  const list = (xs: readonly string[]): string =>
    xs.length > 6 ? `${xs.slice(0, 6).join(', ')} and ${xs.length - 6} more` : xs.join(', ');
  const out: string[] = [];
  if (r.truncated.length)
    out.push(
      `${r.target}: ${plural(r.truncated.length, 'description')} cut at ${r.perSkillChars} characters in the skills listing — ${list(r.truncated)} (${r.source})`,
    );
  if (r.nameOnly.length)
    out.push(
      `${r.target}: ${plural(r.nameOnly.length, 'skill')} listed by name only at session start, past its ~${r.totalChars}-character budget: the model sees no description to choose them by — ${list(r.nameOnly)} (${r.source})`,
    );
  if (r.dropped.length)
    out.push(
      `${r.target}: ${plural(r.dropped.length, 'skill')} left out of the skills listing at session start, past its ~${r.totalChars}-character budget — ${list(r.dropped)} (${r.source})`,
    );
  return out;
}
