import { exceptionMatches, unconfirmedNote, type PolicyException } from '../policy/exceptions';
import type { AcceptedFinding } from '../policy/verdict';
import { plural } from '../text/format';
import { severityBlocks, type Severity } from './config';
import type { ScannerFinding } from './sarif';

/**
 * External scanner findings in the install/update review (SPEC D251, D254): advisory unless
 * `[policy] block_scanner_findings` reaches their severity; a blocking one is accepted only by
 * a confirmed `[[policy.exceptions]]` entry naming it, exactly as a built-in check's.
 */
export interface ReviewScannerFinding extends ScannerFinding {
  readonly status: 'blocking' | 'advisory' | 'accepted';
}

/** How each configured scanner fared over the staged skills of one review. */
export interface ScannerRun {
  readonly name: string;
  /** What `skillsmith scanners confirm` names. */
  readonly id: string;
  readonly state: 'ran' | 'not-installed' | 'failed' | 'unconfirmed';
  /** One line naming the scanner and the problem (absent when it ran). */
  readonly problem?: string;
  readonly findings: number;
}

export interface ScannerJudgement {
  readonly findings: readonly ReviewScannerFinding[];
  readonly accepted: readonly AcceptedFinding[];
  /** Lines for blocking findings an unconfirmed entry would accept (D190 wording). */
  readonly unconfirmed: readonly string[];
}

export interface JudgeContext {
  readonly skill: string;
  readonly integrity: string;
  readonly blockAt?: Severity;
  readonly exceptions: readonly PolicyException[];
  readonly unconfirmed: readonly PolicyException[];
}

/** Judge one skill's scanner findings against the policy and the exceptions in effect. */
export function judgeFindings(found: readonly ScannerFinding[], ctx: JudgeContext): ScannerJudgement {
  const accepted: AcceptedFinding[] = [];
  const unconfirmed: string[] = [];
  const findings = found.map((f): ReviewScannerFinding => {
    if (!severityBlocks(f.severity, ctx.blockAt)) return { ...f, status: 'advisory' };
    const matches = (e: PolicyException): boolean =>
      f.file !== undefined &&
      f.line !== undefined &&
      exceptionMatches(e, ctx.skill, ctx.integrity, f.check as PolicyException['check'], f.file, f.line);
    const e = ctx.exceptions.find(matches);
    if (e && f.file !== undefined && f.line !== undefined) {
      accepted.push({ id: e.check, detail: f.message, file: f.file, line: f.line, by: e.by, reason: e.reason });
      return { ...f, status: 'accepted' };
    }
    const held = ctx.unconfirmed.find(matches);
    if (held) unconfirmed.push(unconfirmedNote(held));
    return { ...f, status: 'blocking' };
  });
  return { findings, accepted, unconfirmed };
}

/** One line for a finding: `semgrep high rule — message at file:line`. */
export function describeScannerFinding(f: ScannerFinding): string {
  return `${f.scanner} ${f.severity} ${f.rule} — ${f.message}${f.file !== undefined ? ` at ${f.file}:${f.line ?? 1}` : ''}`;
}

/** Scanners that did not run, one line each; they block only when the policy needs their results. */
export function runProblems(
  runs: readonly ScannerRun[],
  blockAt: Severity | undefined,
): {
  blockers: string[];
  notices: string[];
} {
  const lines = runs.flatMap((r) => (r.problem === undefined ? [] : [r.problem]));
  return blockAt === undefined
    ? { blockers: [], notices: lines }
    : {
        blockers: lines.map(
          (l) => `${l} — [policy] block_scanner_findings = "${blockAt}" needs every scanner's result`,
        ),
        notices: [],
      };
}

/** The review's one line on which scanners ran (their problems are notices or blockers). */
export function scannerRunLine(runs: readonly ScannerRun[]): string | undefined {
  if (!runs.length) return undefined;
  const word = { ran: 'ran', 'not-installed': 'not installed', failed: 'failed', unconfirmed: 'not confirmed by you' };
  return `scanners: ${runs.map((r) => `${r.name} ${word[r.state]}${r.state === 'ran' ? ` (${plural(r.findings, 'finding')})` : ''}`).join(' · ')}`;
}
