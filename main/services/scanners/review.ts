import type { Skill } from '../../../shared/ksf/model';
import type { ReviewNode } from '../../../shared/lock/review';
import type { ProjectConfig } from '../../../shared/project/config';
import { CodedError } from '../../../shared/result';
import { readScanners, type ScannerDef } from '../../../shared/scanners/config';
import { judgeFindings, runProblems, type ScannerRun } from '../../../shared/scanners/review';
import { parseSarif, type ScannerFinding } from '../../../shared/scanners/sarif';
import { confirmedScanners } from './confirmations';
import { runScanner } from './run';

/** A staged skill a scanner reads: its private folder and the files loaded from it. */
export interface ScanTarget {
  readonly dir: string;
  readonly skill: Skill;
}

export interface ScannedReview {
  readonly nodes: ReviewNode[];
  /** Absent when kitbash.toml names no scanner. */
  readonly runs?: ScannerRun[];
  readonly blockers: string[];
  readonly notices: string[];
}

/**
 * Run every confirmed `[scanners.<name>]` over each staged skill of a review (SPEC D251) and
 * judge the findings: each node gets `scanners`, and accepted and unconfirmed lines as a
 * built-in check's would. `targets[i]` is node i's staged folder (undefined: already
 * installed, not scanned again). A bad `[scanners]` table throws its one-line error.
 */
export async function withScanners(
  project: string,
  config: ProjectConfig,
  nodes: readonly ReviewNode[],
  targets: readonly (ScanTarget | undefined)[],
): Promise<ScannedReview> {
  const sc = readScanners(config.raw);
  if (!sc.ok) throw CodedError.of(sc.error);
  const { scanners, blockAt } = sc.value;
  if (!scanners.length) return { nodes: [...nodes], blockers: [], notices: [] };
  const confirmed = confirmedScanners(project, scanners);
  const found: ScannerFinding[][] = nodes.map(() => []);
  const notices: string[] = [];
  const runs: ScannerRun[] = [];
  for (const def of scanners) {
    if (!confirmed.has(def.id)) {
      runs.push({ ...head(def), state: 'unconfirmed', problem: unconfirmedLine(def), findings: 0 });
      continue;
    }
    runs.push(await scanAll(def, project, targets, found, notices));
  }
  const out = nodes.map((n, i) => {
    if (targets[i] === undefined) return n;
    const j = judgeFindings(found[i]!, {
      skill: n.name,
      integrity: n.integrity,
      ...(blockAt ? { blockAt } : {}),
      exceptions: config.exceptions,
      unconfirmed: config.unconfirmedExceptions ?? [],
    });
    return {
      ...n,
      scanners: j.findings,
      accepted: [...n.accepted, ...j.accepted],
      unconfirmed: [...n.unconfirmed, ...j.unconfirmed],
    };
  });
  const problems = runProblems(runs, blockAt);
  return { nodes: out, runs, blockers: problems.blockers, notices: [...problems.notices, ...notices] };
}

const head = (def: ScannerDef) => ({ name: def.name, id: def.id });

/** Why a scanner named in kitbash.toml did not run, and the one step that lets it. */
export function unconfirmedLine(def: ScannerDef): string {
  return `${def.name}: named in kitbash.toml but not confirmed by you, so it did not run (it runs ${JSON.stringify(def.command)}) — confirm with \`skillsmith scanners confirm ${def.id}\``;
}

/** One scanner over every staged folder; the first problem names the run's state. */
async function scanAll(
  def: ScannerDef,
  project: string,
  targets: readonly (ScanTarget | undefined)[],
  found: ScannerFinding[][],
  notices: string[],
): Promise<ScannerRun> {
  let count = 0;
  for (const [i, t] of targets.entries()) {
    if (t === undefined) continue;
    const name = t.skill.manifest.skill.name;
    const r = await runScanner(def, t.dir, { base: project });
    if (r.state !== 'ran')
      return {
        ...head(def),
        state: r.state,
        problem:
          r.state === 'not-installed' ? `${def.name}: ${r.problem}` : `${def.name} failed on ${name}: ${r.problem}`,
        findings: count,
      };
    const files = new Set(t.skill.tree.entries.filter((e) => e.kind !== 'dir').map((e) => e.path));
    const parsed = parseSarif(r.sarif, { scanner: def.name, skillDir: t.dir, files });
    if (!parsed.ok)
      return {
        ...head(def),
        state: 'failed',
        problem: `${def.name} failed on ${name}: invalid SARIF — ${parsed.error.message}`,
        findings: count,
      };
    found[i]!.push(...parsed.value.findings);
    count += parsed.value.findings.length;
    notices.push(...parsed.value.notes.map((n) => `${name}: ${n}`));
  }
  return { ...head(def), state: 'ran', findings: count };
}
