import type { Check, CheckId, Location } from '../lint/types';
import { SAFETY_CHECK_IDS } from '../lint/types';
import type { Policy } from '../project/config';
import { exceptionMatches, unconfirmedNote, type ExceptionCheck, type PolicyException } from './exceptions';

/** A blocking failure: a safety check with at least one location no exception accepts. */
export interface BlockingFinding {
  readonly id: CheckId;
  readonly detail: string;
  /** The locations still blocking (all of the check's, minus accepted ones). */
  readonly locations: readonly Location[];
  /** Entries in kitbash.toml that would accept one of these locations but this user has not confirmed. */
  readonly unconfirmed?: readonly PolicyException[];
}

/** A finding a `[[policy.exceptions]]` entry accepts for this exact version. */
export interface AcceptedFinding {
  readonly id: ExceptionCheck;
  readonly detail: string;
  readonly file: string;
  readonly line: number;
  readonly by: string;
  readonly reason: string;
}

/**
 * The one verdict of a skill, shared by the dashboard, the review, `run`, `gate`, the Runs
 * tab and evals so that they can never disagree: counts, what blocks, what was accepted.
 */
export interface SkillVerdict {
  readonly status: 'pass' | 'warn' | 'fail';
  /** Failing checks, not counting a safety check whose every location is accepted. */
  readonly failures: number;
  readonly warnings: number;
  readonly blocking: readonly BlockingFinding[];
  readonly accepted: readonly AcceptedFinding[];
}

export interface VerdictContext {
  readonly skill: string;
  /** The tree integrity of exactly the files the checks read. */
  readonly integrity: string;
  readonly policy?: Policy;
  readonly exceptions: readonly PolicyException[];
  /** Entries held back as unconfirmed (spec D190): never accept anything, only explain a refusal. */
  readonly unconfirmed?: readonly PolicyException[];
}

/**
 * Does this failing check block (before exceptions)? `deny_remote_exec = false` exempts remote-exec, as in the
 * reference.
 */
export function isBlockingCheck(c: Pick<Check, 'id' | 'status'>, policy: Policy | undefined): boolean {
  return (
    c.status === 'fail' &&
    SAFETY_CHECK_IDS.includes(c.id) &&
    !(c.id === 'remote-exec' && policy !== undefined && !policy.denyRemoteExec)
  );
}

export function skillVerdict(checks: readonly Check[], ctx: VerdictContext): SkillVerdict {
  const blocking: BlockingFinding[] = [];
  const accepted: AcceptedFinding[] = [];
  let failures = 0;
  let warnings = 0;
  for (const c of checks) {
    if (c.status === 'warn') warnings++;
    if (c.status !== 'fail') continue;
    if (!isBlockingCheck(c, ctx.policy)) {
      failures++;
      continue;
    }
    const detail = c.detail ?? c.id;
    const open: Location[] = [];
    const locations = c.locations ?? [];
    for (const l of locations) {
      const e = ctx.exceptions.find((x) => exceptionMatches(x, ctx.skill, ctx.integrity, c.id, l.file, l.line));
      if (e) accepted.push({ id: c.id, detail, file: l.file, line: l.line, by: e.by, reason: e.reason });
      else open.push(l);
    }
    // A failure without a location cannot be named by an exception, so it always blocks.
    if (open.length > 0 || locations.length === 0) {
      failures++;
      const held = (ctx.unconfirmed ?? []).filter((x) =>
        open.some((l) => exceptionMatches(x, ctx.skill, ctx.integrity, c.id, l.file, l.line)),
      );
      blocking.push({ id: c.id, detail, locations: open, ...(held.length ? { unconfirmed: held } : {}) });
    }
  }
  return { status: failures ? 'fail' : warnings ? 'warn' : 'pass', failures, warnings, blocking, accepted };
}

/** One line per blocking finding with its first place, for refusals. */
export function describeBlocking(skill: string, b: BlockingFinding): string {
  const at = b.locations[0];
  const more = b.locations.length > 1 ? ` (+${b.locations.length - 1} more)` : '';
  const held = b.unconfirmed?.[0];
  return `${skill}: ${b.id} — ${b.detail}${at ? ` at ${at.file}:${at.line}${more}` : ''}${held ? `; ${unconfirmedNote(held)}` : ''}`;
}

/** How to get past a blocking finding, said the same way everywhere. */
export const RESOLVE_BLOCKING =
  "fix the skill and update it, or — after reading the finding in context — accept that exact finding of this exact version with a [[policy.exceptions]] entry in kitbash.toml naming skill, integrity, check, file, line, by and reason (the app's install review writes one for a skill being installed)";
