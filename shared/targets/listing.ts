/**
 * What each agent lists at session start (issue 13 item 8): descriptions share a documented
 * character budget (Claude Code: about 1% of the context window, 1,536 characters each; Codex:
 * about 2%, 8,000 characters), so past it skills are cut or left out of the listing before
 * the user ever asks for them. Figures come from each target module's `listingBudget`.
 */
import { userOnly } from './common';
import type { PreparedSkill, TargetDef, TargetId } from './types';

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
  readonly source: string;
}

/** Per-entry overhead of a listing line (name, separator, line break), in characters. */
const ENTRY_OVERHEAD = 4;

/** The listing a target's agent builds from these skills (name order), or undefined when it documents no budget. */
export function listingReport(skills: readonly PreparedSkill[], target: TargetDef): ListingReport | undefined {
  const b = target.listingBudget;
  if (!b) return undefined;
  const listed = skills
    .filter((p) => !(target.userInvocation && userOnly(p)))
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  let used = 0;
  const truncated: string[] = [];
  const dropped: string[] = [];
  for (const p of listed) {
    let len = [...p.description].length;
    if (b.perSkillChars !== undefined && len > b.perSkillChars) {
      truncated.push(p.name);
      len = b.perSkillChars;
    }
    const entry = p.name.length + len + ENTRY_OVERHEAD;
    if (b.totalChars !== undefined && used + entry > b.totalChars) dropped.push(p.name);
    else used += entry;
  }
  return {
    target: target.id,
    usedChars: used,
    ...(b.totalChars !== undefined ? { totalChars: b.totalChars } : {}),
    ...(b.perSkillChars !== undefined ? { perSkillChars: b.perSkillChars } : {}),
    truncated,
    dropped,
    source: b.source,
  };
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
  if (r.dropped.length)
    out.push(
      `${r.target}: ${r.dropped.length} skill(s) left out of the skills listing at session start, past its ~${r.totalChars}-character budget — ${list(r.dropped)} (${r.source})`,
    );
  return out;
}
