import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  EvalFile,
  EvalResult,
  RunnerConfig,
  TranscriptFormat,
  TranscriptEntry,
  TrialResult,
} from '../../../shared/evals/model';
import { RUNNER_TIERS } from '../../../shared/evals/model';
import { parseEvalFile } from '../../../shared/evals/parse';
import { PRESETS, readRunners } from '../../../shared/evals/runners';
import { readTranscript } from '../../../shared/evals/transcript';
import { fail, formatError, isCoded } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { resolveInside } from '../fs/contain';
import { pinRefusal, verifySkill } from '../lock/index';
import { readProjectConfig } from '../project/config';
import { installedSkills } from '../skills/locate';
import { readSkillTree } from '../skills/reader';
import { blockingSafety, EVALS_DIR, planJobs, runEvals, trialPath, type EvalRequest, type EvalRun } from './run';
import { resolveExecutable } from './install-reads';
import { approveRunner, runnerStatuses, type RunnerStatus } from './approvals';
import type { RunnerGrant } from '../../../shared/evals/consent';

/** What the Evals view lists: each skill's runner-tier evals, the runners, and problems. */
export interface EvalsOverview {
  readonly skills: ReadonlyArray<{
    readonly name: string;
    readonly version: string;
    readonly evals: ReadonlyArray<
      Pick<EvalFile, 'name' | 'tier' | 'threshold' | 'repeat'> & {
        readonly description: string | null;
        readonly runner: string | null;
        readonly file: string;
      }
    >;
    /** Why its evals are refused (not what kitbash.lock pins, a blocking safety check), or null. */
    readonly refused: string | null;
  }>;
  readonly runners: ReadonlyArray<{
    readonly id: string;
    readonly target: string;
    readonly transcript: TranscriptFormat;
    readonly preset: boolean;
    readonly configured: boolean;
    readonly available: boolean;
    readonly command: readonly string[];
  }>;
  readonly problems: readonly string[];
}

export interface EvalProgress {
  readonly runId: string;
  readonly state: 'running' | 'done' | 'failed';
  readonly done: number;
  readonly total: number;
  readonly results: readonly EvalResult[];
  readonly problems: readonly string[];
  readonly cancelled: boolean;
  readonly message: string | null;
}

export interface TrialDetail {
  readonly trial: TrialResult;
  readonly entries: readonly TranscriptEntry[];
  readonly transcriptProblem: string | null;
  readonly output: string;
  readonly diff: string;
  readonly stderr: string;
}

export interface HistoryPoint {
  readonly runId: string;
  readonly startedAt: string;
  readonly version: string;
  readonly eval: string;
  readonly runner: string;
  readonly passRate: number;
  readonly baselinePassRate: number | null;
}

const RUN_ID = /^[0-9TZ-]+-[0-9a-f]{6}$/;

interface Active {
  readonly root: string;
  readonly owner: object;
  readonly controller: AbortController;
  runId: string;
  state: EvalProgress['state'];
  done: number;
  total: number;
  results: EvalResult[];
  problems: readonly string[];
  cancelled: boolean;
  message: string | null;
}

/**
 * Eval runs started from the app: one at a time per project, polled for progress,
 * cancellable by the window that started it. Results live in `.kitbash/evals/` like the
 * CLI's; this only keeps the run in flight.
 */
export class EvalService {
  private readonly runs = new Map<string, Active>();

  overview(root: string): EvalsOverview {
    const config = readProjectConfig(root);
    if (!config.ok) return { skills: [], runners: [], problems: [formatError(config.error)] };
    const read = readRunners(config.value.raw);
    const problems: string[] = read.ok ? [] : [read.error.message];
    const configured = read.ok ? read.value : [];
    const runner = (r: RunnerConfig, isConfigured: boolean): EvalsOverview['runners'][number] => ({
      id: r.id,
      target: r.target,
      transcript: r.transcript,
      preset: r.preset !== undefined,
      configured: isConfigured,
      available: r.command[0] !== undefined && resolveExecutable(r.command[0], root, process.env.PATH) !== undefined,
      command: [...r.command],
    });
    const runners = [
      ...configured.map((r) => runner(r, true)),
      ...PRESETS.filter((p) => !configured.some((c) => c.id === p.id)).map((p) => runner(p, false)),
    ];
    const skills: EvalsOverview['skills'][number][] = [];
    for (const loc of installedSkills(root)) {
      if (loc.kind === 'broken') continue;
      const tree = readSkillTree(loc.abs, loc.display);
      const loaded = tree.ok ? loadSkill(tree.value, { nameHint: loc.nameHint }) : tree;
      if (!loaded.ok) {
        problems.push(formatError(loaded.error));
        continue;
      }
      const evals: EvalsOverview['skills'][number]['evals'][number][] = [];
      for (const f of loaded.value.tree.entries) {
        if (f.kind !== 'file' || !/^evals\/[^/]+\.eval\.yaml$/.test(f.path)) continue;
        const text = decodeUtf8(f.bytes);
        const p = text.ok
          ? parseEvalFile(text.value.text, `${loc.display}/${f.path}`)
          : fail('invalid-input', `${loc.display}/${f.path}: (file): not valid UTF-8`);
        if (!p.ok) problems.push(p.error.message);
        else if (RUNNER_TIERS.includes(p.value.tier)) {
          const e = p.value;
          evals.push({
            name: e.name,
            tier: e.tier,
            threshold: e.threshold,
            repeat: e.repeat,
            description: e.description ?? null,
            runner: e.runner ?? null,
            file: e.file,
          });
        }
      }
      if (evals.length === 0) continue;
      const pin = verifySkill(root, loc.nameHint);
      const unsafe = blockingSafety(loaded.value);
      const m = loaded.value.manifest.skill;
      skills.push({
        name: m.name,
        version: m.version,
        evals,
        refused: !pin.ok
          ? pinRefusal(loc.nameHint, pin.error)
          : unsafe.length
            ? `a blocking safety check fails (${unsafe.join('; ')})`
            : null,
      });
    }
    return { skills, runners, problems };
  }

  /**
   * The runners a run of `req` would use, each with its approval as defined now: what the
   * app asks about before it starts the run. Throws what planning the run would throw.
   */
  runnerApprovals(root: string, req: Omit<EvalRequest, 'projectRoot'>): RunnerStatus[] {
    const { jobs } = planJobs({ projectRoot: root, ...req, surface: 'app' });
    return runnerStatuses(
      root,
      jobs.map((j) => j.runner),
    );
  }

  /** Approve a runner exactly as the user was shown it (its grant key), in the CLI's approvals file. */
  approveShown(root: string, runner: string, key: string): RunnerGrant {
    return approveRunner(root, runner, { shownKey: key, surface: 'app' });
  }

  /** Start a run; resolves once it is planned (or refuses with the reason). */
  start(
    root: string,
    owner: object,
    req: Omit<EvalRequest, 'projectRoot'>,
  ): Promise<{ ok: true; runId: string } | { ok: false; message: string }> {
    for (const a of this.runs.values())
      if (a.root === root && a.state === 'running')
        return Promise.resolve({
          ok: false,
          message: `an eval run (${a.runId}) is still running in this project — wait for it or cancel it`,
        });
    const active: Active = {
      root,
      owner,
      controller: new AbortController(),
      runId: '',
      state: 'running',
      done: 0,
      total: 0,
      results: [],
      problems: [],
      cancelled: false,
      message: null,
    };
    return new Promise((resolve) => {
      runEvals(
        { projectRoot: root, ...req, surface: 'app' },
        {
          signal: active.controller.signal,
          onEvent: (e) => {
            if (e.type === 'planned') {
              active.runId = e.runId;
              active.total = e.total;
              this.runs.set(e.runId, active);
              resolve({ ok: true, runId: e.runId });
            } else if (e.type === 'trial') active.done = e.done;
            else active.results = [...active.results, e.result];
          },
        },
      ).then(
        (run) => {
          active.state = 'done';
          active.problems = run.problems;
          active.cancelled = run.cancelled;
          if (run.results.length === 0)
            active.message = run.problems.length ? null : 'no audit, behavioral or trigger evals to run';
        },
        (e: unknown) => {
          const message = e instanceof Error ? e.message : String(e);
          if (!active.runId)
            resolve({
              ok: false,
              // A runner not approved (forbidden) says which one and what it asks for, as it is.
              message: isCoded(e, 'invalid-request', 'forbidden') ? message : `the eval run failed: ${message}`,
            });
          active.state = 'failed';
          active.message = message;
        },
      );
    });
  }

  /** The run in flight in this project, if any. */
  active(root: string): string | null {
    for (const a of this.runs.values()) if (a.root === root && a.state === 'running') return a.runId;
    return null;
  }

  status(runId: string): EvalProgress | undefined {
    const a = this.runs.get(runId);
    if (!a) return undefined;
    return {
      runId,
      state: a.state,
      done: a.done,
      total: a.total,
      results: a.results,
      problems: a.problems,
      cancelled: a.cancelled,
      message: a.message,
    };
  }

  cancel(runId: string, owner: object): boolean {
    const a = this.runs.get(runId);
    if (!a || a.owner !== owner || a.state !== 'running') return false;
    a.controller.abort();
    return true;
  }

  /** Finished runs of the project, newest first (their results.json). */
  /** The newest stored result of each skill, eval and runner, with the run it came from. */
  latestResults(root: string): { runId: string; result: EvalRun['results'][number] }[] {
    const latest = new Map<string, { runId: string; result: EvalRun['results'][number] }>();
    for (const run of this.storedRuns(root)) {
      for (const r of run.results) {
        const key = `${r.skill}\0${r.eval}\0${r.runner}`;
        if (!latest.has(key)) latest.set(key, { runId: run.runId, result: r });
      }
    }
    return [...latest.values()];
  }

  storedRuns(root: string): EvalRun[] {
    const dir = join(root, EVALS_DIR);
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => RUN_ID.test(n));
    } catch {
      return [];
    }
    const out: EvalRun[] = [];
    for (const n of names.sort().reverse()) {
      try {
        out.push(JSON.parse(readFileSync(join(dir, n, 'results.json'), 'utf8')) as EvalRun);
      } catch {
        // a run still in progress, or a file someone else wrote: not ours to report
      }
    }
    return out;
  }

  /** Pass rate per skill version over the stored runs, oldest first. */
  history(root: string, skill: string): HistoryPoint[] {
    const points: HistoryPoint[] = [];
    for (const run of this.storedRuns(root)) {
      for (const r of run.results) {
        if (r.skill !== skill || r.trials === 0) continue;
        points.push({
          runId: run.runId,
          startedAt: run.startedAt,
          version: r.version,
          eval: r.eval,
          runner: r.runner,
          passRate: r.passRate,
          baselinePassRate: r.baselinePassRate,
        });
      }
    }
    return points.reverse();
  }

  /** One stored trial: its transcript read again with its runner's format, its diff and stderr. */
  trial(
    root: string,
    q: { runId: string; skill: string; eval: string; runner: string; baseline: boolean; index: number },
  ): TrialDetail | undefined {
    if (!RUN_ID.test(q.runId)) return undefined;
    const runDir = resolveInside(root, join(EVALS_DIR, q.runId));
    if (!runDir) return undefined;
    let run: EvalRun;
    try {
      run = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as EvalRun;
    } catch {
      return undefined;
    }
    const result = run.results.find((r) => r.skill === q.skill && r.eval === q.eval && r.runner === q.runner);
    const trial = result?.trialResults.find((t) => t.baseline === q.baseline && t.index === q.index);
    if (!trial) return undefined;
    const stem = resolveInside(runDir, trialPath(q.skill, q.eval, q.runner, q.baseline, q.index));
    if (!stem) return undefined;
    const read = (ext: string): string => {
      try {
        return readFileSync(`${stem}.${ext}`, 'utf8');
      } catch {
        return '';
      }
    };
    const format = run.runners?.[q.runner]?.transcript ?? 'text';
    const t = readTranscript(format, read('transcript'), q.skill);
    return {
      trial,
      entries: t.entries,
      transcriptProblem: t.problem ?? null,
      output: t.output,
      diff: read('diff'),
      stderr: read('stderr'),
    };
  }
}

export const evalService = new EvalService();
