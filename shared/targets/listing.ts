/**
 * What each agent lists at session start (issue 13 item 8): descriptions share a documented
 * character budget (Claude Code: about 1% of the context window, 1,536 characters each; Codex:
 * about 2%, 8,000 characters), so past it skills are cut or left out of the listing before
 * the user ever asks for them. Figures come from each target module's `listingBudget`.
 */
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

/** Per-entry overhead of a listing line (name, separator, line break), in characters. */
const ENTRY_OVERHEAD = 4;
/** A `- name: description` line (with its line break) less the name and the description. */
const NAMED_OVERHEAD = 5;
/** A `- name` line (with its line break) less the name. */
const NAME_ONLY_OVERHEAD = 3;

/** The listing a target's agent builds from these skills (name order), or undefined when it documents no budget. */
export function listingReport(skills: readonly PreparedSkill[], target: TargetDef): ListingReport | undefined {
  const b = target.listingBudget;
  if (!b) return undefined;
  const listed = skills
    .filter((p) => !(target.userInvocation && userOnly(p)))
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const truncated: string[] = [];
  const entries = listed.map((p) => {
    let len = [...p.description].length;
    if (b.perSkillChars !== undefined && len > b.perSkillChars) {
      truncated.push(p.name);
      len = b.perSkillChars;
    }
    return { name: p.name, len };
  });
  const fit = b.overflow === 'name-only' ? namesKept(entries, b) : dropPast(entries, b);
  return {
    target: target.id,
    usedChars: fit.used,
    ...(b.totalChars !== undefined ? { totalChars: b.totalChars } : {}),
    ...(b.perSkillChars !== undefined ? { perSkillChars: b.perSkillChars } : {}),
    truncated,
    dropped: fit.dropped,
    nameOnly: fit.nameOnly,
    source: b.source,
  };
}

interface Entry {
  readonly name: string;
  /** The description's length in the listing (after the per-skill cut). */
  readonly len: number;
}
interface Fit {
  readonly used: number;
  readonly dropped: string[];
  readonly nameOnly: string[];
}

/** Skills in name order until the budget; every later one that does not fit is left out. */
function dropPast(entries: readonly Entry[], b: ListingBudget): Fit {
  let used = b.reservedChars ?? 0;
  const dropped: string[] = [];
  for (const e of entries) {
    const size = e.name.length + e.len + ENTRY_OVERHEAD;
    if (b.totalChars !== undefined && used + size > b.totalChars) dropped.push(e.name);
    else used += size;
  }
  return { used, dropped, nameOnly: [] };
}

/**
 * Every name is listed; descriptions go in, in name order, while the whole listing stays
 * within the budget, and one that does not fit leaves its skill named only while shorter
 * ones after it may still fit (Claude Code 2.1.197, measured: see claude-code.ts).
 */
function namesKept(entries: readonly Entry[], b: ListingBudget): Fit {
  let used = (b.reservedChars ?? 0) + entries.reduce((n, e) => n + e.name.length + NAME_ONLY_OVERHEAD, 0);
  const nameOnly: string[] = [];
  for (const e of entries) {
    const more = e.len + NAMED_OVERHEAD - NAME_ONLY_OVERHEAD;
    if (b.totalChars !== undefined && used + more > b.totalChars) nameOnly.push(e.name);
    else used += more;
  }
  return { used, dropped: [], nameOnly };
}

/** One warning line per problem in a report (none when everything fits). */
export function listingWarnings(r: ListingReport): string[] {
  const list = (xs: readonly string[]): string =>
    xs.length > 6 ? `${xs.slice(0, 6).join(', ')} and ${xs.length - 6} more` : xs.join(', ');
  const out: string[] = [];
  if (r.truncated.length)
    out.push(
      `${r.target}: ${r.truncated.length} description(s) cut at ${r.perSkillChars} characters in the skills listing — ${list(r.truncated)} (${r.source})`,
    );
  if (r.nameOnly.length)
    out.push(
      `${r.target}: ${r.nameOnly.length} skill(s) listed by name only at session start, past its ~${r.totalChars}-character budget: the model sees no description to choose them by — ${list(r.nameOnly)} (${r.source})`,
    );
  if (r.dropped.length)
    out.push(
      `${r.target}: ${r.dropped.length} skill(s) left out of the skills listing at session start, past its ~${r.totalChars}-character budget — ${list(r.dropped)} (${r.source})`,
    );
  return out;
}
