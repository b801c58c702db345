import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { CodedError, fail, formatError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { lintSkill } from '../../../shared/lint/checks';
import { SAFETY_CHECK_IDS } from '../../../shared/lint/types';
import type { EvalFile, EvalResult, RunnerConfig, TrialResult } from '../../../shared/evals/model';
import { RUNNER_TIERS } from '../../../shared/evals/model';
import { parseEvalFile } from '../../../shared/evals/parse';
import { commandFor, findRunner, PRESETS, readRunners, versionWarning } from '../../../shared/evals/runners';
import { judgeTrial, type ArtifactSeen } from '../../../shared/evals/score';
import { mapBounded } from '../../../shared/evals/pool';
import { summariseEval } from '../../../shared/evals/summary';
import { shardOf, type PlannedEval, type Shard } from '../../../shared/evals/shard';
import { readTranscript } from '../../../shared/evals/transcript';
import { readUsage } from '../../../shared/evals/usage';
import { writeFileAtomic } from '../fs/atomic';
import { readProjectConfig } from '../project/config';
import { judgeArtifact, listArtifacts } from '../runs/artifacts';
import { currentHost, probeBackend, withNetns } from '../sandbox/probe';
import type { BackendStatus } from '../sandbox/types';
import { installedSkills } from '../skills/locate';
import { readSkillTree } from '../skills/reader';
import { requireApproved } from './approvals';
import { installedPackage, resolveExecutable } from './install-reads';
import { runTrialProcess } from './trial';
import type { Surface } from '../../../shared/text/surface';
import { changedPaths, makeWorkspace, snapshot, workspaceDiff } from './workspace';
import { isRealDir } from '../fs/probe';
import { pinRefusal, verifySkill } from '../lock/index';

export const EVALS_DIR = join('.kitbash', 'evals');

export interface EvalRequest {
  readonly projectRoot: string;
  /** Installed skill names; empty → every installed skill with evals. */
  readonly skills: readonly string[];
  readonly runner?: string;
  readonly repeat?: number;
  readonly baseline: boolean;
  /** Only these eval names (the app's "run one cell"). */
  readonly evals?: readonly string[];
  /** Trials in flight at once, each in its own sandbox and folders; default `defaultJobs()`. */
  readonly jobs?: number;
  /** Run only this shard's trials (shared/evals/shard.ts); `eval merge` joins the shards. */
  readonly shard?: Shard;
  /** Who words the refusals: the command line names `--runner` and `--approve-runner`, the app its Runner list. */
  readonly surface?: Surface;
}

/** As many trials at once as the machine has cores: the CLI's and the app's default. */
export function defaultJobs(): number {
  return availableParallelism();
}

export type EvalEvent =
  | { readonly type: 'planned'; readonly runId: string; readonly total: number }
  | {
      readonly type: 'trial';
      readonly skill: string;
      readonly eval: string;
      readonly runner: string;
      readonly done: number;
      readonly total: number;
      readonly trial: TrialResult;
    }
  | { readonly type: 'result'; readonly result: EvalResult };

export interface EvalDeps {
  readonly parentEnv?: Readonly<Record<string, string | undefined>>;
  readonly tmpRoot?: string;
  readonly probe?: () => Promise<BackendStatus>;
  readonly now?: () => Date;
}

export interface EvalRun {
  readonly runId: string;
  /** Project-relative folder of the results and transcripts. */
  readonly dir: string;
  readonly startedAt: string;
  readonly results: readonly EvalResult[];
  /** Skills refused, eval files that did not parse: one line each. */
  readonly problems: readonly string[];
  /** What does not stop the run but weakens its verdicts (an agent version no preset was verified with). */
  readonly warnings: readonly string[];
  /** True when some runner could not start (missing executable, no sandbox). */
  readonly runnerUnavailable: boolean;
  readonly cancelled: boolean;
  /** How each runner used was set up, so a stored transcript can be read again. */
  readonly runners: Readonly<Record<string, Pick<RunnerConfig, 'command' | 'target' | 'transcript'>>>;
  readonly baseline: boolean;
  /** Digest of what decides the trials and their verdicts: shards merge only when it agrees. */
  readonly config: string;
  /** Every eval × runner with its trial counts before sharding. */
  readonly plan: readonly PlannedEval[];
  readonly shard?: Shard;
  /** A merge of shards: their run ids, in shard order. */
  readonly mergedFrom?: readonly string[];
}

interface Job {
  readonly skill: Skill;
  readonly skillDir: string;
  readonly evalFile: EvalFile;
  readonly runner: RunnerConfig;
  readonly repeat: number;
}

/**
 * A skill's lint verdict on safety: evals of a skill with a failing safety check are
 * refused, as runs are. Kept to this one function so the shared run/gate verdict can
 * replace it.
 */
export function blockingSafety(skill: Skill): string[] {
  return lintSkill(skill)
    .filter((c) => (SAFETY_CHECK_IDS as readonly string[]).includes(c.id) && c.status === 'fail')
    .map((c) => `${c.id}: ${c.detail}`);
}

/**
 * The skills, eval files and runners a request names. A request that cannot start at all
 * (bad arguments, no runner, a bad runner table) throws an `invalid-request` CodedError: the
 * CLI exits 2 on it, the app shows its message as it is. A runner the user has not approved
 * throws RunnerNotApproved (`forbidden`), which the CLI may turn into a question.
 */
export function planEvals(req: EvalRequest): { jobs: Job[]; problems: string[] } {
  const planned = planJobs(req);
  // Before any trial: a runner reaches the user's secrets, files and network only with consent.
  requireApproved(
    req.projectRoot,
    planned.jobs.map((j) => j.runner),
    req.surface,
  );
  return planned;
}

/**
 * planEvals without the approval check: what the app lists for approval before it starts
 * the same request.
 */
export function planJobs(req: EvalRequest): { jobs: Job[]; problems: string[] } {
  const root = req.projectRoot;
  const config = readProjectConfig(root);
  if (!config.ok) throw new CodedError('invalid-input', formatError(config.error));
  const configured = readRunners(config.value.raw);
  if (!configured.ok) throw new CodedError('invalid-input', configured.error.message);
  const forced = req.runner !== undefined ? findRunner(configured.value, req.runner) : undefined;
  const app = req.surface === 'app';
  if (req.runner !== undefined && !forced) {
    throw new CodedError(
      'invalid-request',
      `${app ? 'Runner' : '--runner'} ${req.runner}: no such runner (configured: ${configured.value.map((r) => r.id).join(', ') || 'none'}; presets: ${PRESETS.map((p) => p.id).join(', ')})`,
    );
  }
  const installed = installedSkills(root);
  const unknown = req.skills.filter((n) => !installed.some((s) => s.nameHint === n));
  if (unknown.length)
    throw new CodedError(
      'invalid-request',
      `${unknown.join(', ')}: not installed under .kitbash/skills/${installed.length ? ` (installed: ${installed.map((s) => s.nameHint).join(', ')})` : ''}`,
    );
  const jobs: Job[] = [];
  const problems: string[] = [];
  for (const loc of installed) {
    if (req.skills.length && !req.skills.includes(loc.nameHint)) continue;
    if (loc.kind === 'broken') {
      problems.push(`${loc.display}: ${loc.problem}`);
      continue;
    }
    const tree = readSkillTree(loc.abs, loc.display);
    const loaded = tree.ok ? loadSkill(tree.value, { nameHint: loc.nameHint }) : tree;
    if (!loaded.ok) {
      problems.push(formatError(loaded.error));
      continue;
    }
    const skill = loaded.value;
    const files = skill.tree.entries.filter((e) => e.kind === 'file' && /^evals\/[^/]+\.eval\.yaml$/.test(e.path));
    const parsed: EvalFile[] = [];
    for (const f of files) {
      if (f.kind !== 'file') continue;
      const display = `${loc.display}/${f.path}`;
      const text = decodeUtf8(f.bytes);
      const p = text.ok
        ? parseEvalFile(text.value.text, display)
        : fail('invalid-input', `${display}: (file): not valid UTF-8`);
      if (!p.ok) problems.push(p.error.message);
      else if (RUNNER_TIERS.includes(p.value.tier) && (!req.evals || req.evals.includes(p.value.name)))
        parsed.push(p.value);
    }
    if (parsed.length === 0) continue;
    const pin = verifySkill(root, loc.nameHint);
    if (!pin.ok) {
      problems.push(`${skill.manifest.skill.name}: refused — ${pinRefusal(loc.nameHint, pin.error)}`);
      continue;
    }
    const unsafe = blockingSafety(skill);
    if (unsafe.length) {
      problems.push(
        `${skill.manifest.skill.name}: refused — a blocking safety check fails (${unsafe.join('; ')}); fix it before running its evals`,
      );
      continue;
    }
    for (const e of parsed) {
      if (e.fixture !== undefined && !isRealDir(join(loc.abs, e.fixture))) {
        problems.push(`${e.file}: fixture: ${e.fixture} is not a folder in the skill`);
        continue;
      }
      let runners: RunnerConfig[];
      if (forced) runners = [forced];
      else if (e.runner !== undefined) {
        const r = findRunner(configured.value, e.runner);
        if (!r) {
          problems.push(
            `${e.file}: runner: no runner "${e.runner}" (configure [evals.runners.${e.runner}] in kitbash.toml, or use a preset: ${PRESETS.map((p) => p.id).join(', ')})`,
          );
          continue;
        }
        runners = [r];
      } else runners = configured.value;
      if (runners.length === 0) {
        throw new CodedError(
          'invalid-request',
          `no runner for ${e.file}: configure [evals.runners.<id>] in kitbash.toml or ${app ? 'pick a runner in the Runner list' : 'pass --runner'} (${PRESETS.map((p) => p.id).join(', ')})`,
        );
      }
      for (const runner of runners)
        jobs.push({ skill, skillDir: loc.abs, evalFile: e, runner, repeat: req.repeat ?? e.repeat });
    }
  }
  return { jobs, problems };
}

interface Task {
  readonly text: string;
  readonly withSkill: boolean;
  readonly shouldTrigger?: boolean;
}

function tasksOf(job: Job, baseline: boolean): Task[] {
  const e = job.evalFile;
  const rep = (t: Omit<Task, 'withSkill'>, withSkill: boolean): Task[] =>
    Array.from({ length: job.repeat }, () => ({ ...t, withSkill }));
  if (e.tier === 'trigger') {
    return [
      ...e.shouldTrigger.flatMap((text) => rep({ text, shouldTrigger: true }, true)),
      ...e.shouldNotTrigger.flatMap((text) => rep({ text, shouldTrigger: false }, true)),
    ];
  }
  return [...rep({ text: e.task! }, true), ...(baseline ? rep({ text: e.task! }, false) : [])];
}

/**
 * Run every planned eval: each trial in a fresh workspace under a temporary folder,
 * inside the sandbox; results and transcripts under `.kitbash/evals/<run>/`. Nothing
 * else in the project is written.
 */
export async function runEvals(
  req: EvalRequest,
  opts: { signal?: AbortSignal; onEvent?: (e: EvalEvent) => void } = {},
  deps: EvalDeps = {},
): Promise<EvalRun> {
  const { jobs, problems } = planEvals(req);
  const now = deps.now ?? (() => new Date());
  const started = now();
  const runId = newRunId(started);
  const dirRel = `${EVALS_DIR.split('\\').join('/')}/${runId}`;
  const outDir = join(req.projectRoot, EVALS_DIR, runId);
  const emit = opts.onEvent ?? (() => undefined);
  // Every trial of every eval, in the order a serial run takes them; a trial's place here
  // fixes its place in the results whatever order the trials finish in.
  const planned = jobs.flatMap((job, j) =>
    tasksOf(job, req.baseline).map((task, i) => ({ j, task, index: task.withSkill ? i : i - job.repeat })),
  );
  const shard = req.shard;
  const units = shard
    ? planned.filter((u) => {
        const job = jobs[u.j]!;
        const id = { skill: job.skill.manifest.skill.name, eval: job.evalFile.name, runner: job.runner.id };
        return shardOf({ ...id, baseline: !u.task.withSkill, index: u.index }, shard.count) === shard.index;
      })
    : planned;
  const total = units.length;
  emit({ type: 'planned', runId, total });
  const parentEnv = deps.parentEnv ?? process.env;
  const homes = [parentEnv.HOME ?? '', safeHome()].filter((h) => h !== '');
  const backend = await (deps.probe ?? (() => probeForTrials(parentEnv, jobs)))();
  const results: EvalResult[] = [];
  const got: (TrialResult | undefined)[] = [];
  const left = jobs.map((_, j) => units.filter((u) => u.j === j).length);
  let done = 0;
  let runnerUnavailable = false;
  // Results go out in plan order: an eval is reported once it and every eval before it is done.
  const flush = (all: boolean): void => {
    while (results.length < jobs.length && (all || left[results.length] === 0)) {
      const j = results.length;
      const job = jobs[j]!;
      const trials = units.flatMap((u, k) => (u.j === j && got[k] ? [got[k]] : []));
      const m = job.skill.manifest.skill;
      const result = summariseEval(
        { skill: m.name, version: m.version, eval: job.evalFile, runner: job.runner.id },
        trials,
        req.baseline,
      );
      results.push(result);
      emit({ type: 'result', result });
    }
  };
  flush(false);
  await mapBounded(
    units,
    req.jobs ?? defaultJobs(),
    async (u, k) => {
      const job = jobs[u.j]!;
      const trial = await oneTrial(req, job, u.task, u.index, {
        outDir,
        parentEnv,
        homes,
        backend,
        ...(deps.tmpRoot ? { tmpRoot: deps.tmpRoot } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      if (trial.outcome === 'not-found' || trial.outcome === 'refused') runnerUnavailable = true;
      got[k] = trial;
      left[u.j]!--;
      const name = job.skill.manifest.skill.name;
      emit({ type: 'trial', skill: name, eval: job.evalFile.name, runner: job.runner.id, done: ++done, total, trial });
      flush(false);
    },
    opts.signal ? { signal: opts.signal } : {},
  );
  flush(true);
  const runners = Object.fromEntries(
    jobs.map((j) => [
      j.runner.id,
      { command: j.runner.command, target: j.runner.target, transcript: j.runner.transcript },
    ]),
  );
  const run: EvalRun = {
    runId,
    dir: dirRel,
    startedAt: started.toISOString(),
    results,
    problems,
    warnings: agentVersionWarnings(jobs, req.projectRoot, parentEnv.PATH),
    runnerUnavailable,
    cancelled: opts.signal?.aborted === true,
    runners,
    baseline: req.baseline,
    config: configDigest(jobs, req.baseline),
    plan: jobs.map((job) => {
      const tasks = tasksOf(job, req.baseline);
      const m = job.skill.manifest.skill;
      return {
        skill: m.name,
        version: m.version,
        eval: job.evalFile.name,
        tier: job.evalFile.tier,
        threshold: job.evalFile.threshold,
        runner: job.runner.id,
        trials: tasks.filter((t) => t.withSkill).length,
        baselineTrials: tasks.filter((t) => !t.withSkill).length,
      };
    }),
    ...(shard ? { shard } : {}),
  };
  if (jobs.length > 0) writeFileAtomic(join(outDir, 'results.json'), JSON.stringify(run, null, 2) + '\n');
  return run;
}

/** One warning per runner whose agent is not a version its preset was verified with. */
function agentVersionWarnings(jobs: readonly Job[], root: string, path: string | undefined): string[] {
  const runners = [...new Map(jobs.map((j) => [j.runner.id, j.runner])).values()];
  return runners.flatMap((r) => {
    const exe = r.command[0] === undefined ? undefined : resolveExecutable(r.command[0], root, path);
    if (exe === undefined) return [];
    return versionWarning(r, installedPackage(exe)) ?? [];
  });
}

/** The sandbox as the trials need it: with the network namespace probed when a runner has network. */
async function probeForTrials(
  parentEnv: Readonly<Record<string, string | undefined>>,
  jobs: readonly Job[],
): Promise<BackendStatus> {
  const host = currentHost(parentEnv);
  const status = await probeBackend(host);
  return jobs.some((j) => j.runner.network) ? withNetns(status, host) : status;
}

/** A run folder's name: sortable by time, unique on one machine. */
export function newRunId(at: Date): string {
  return `${at.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/**
 * What must agree between shards for their trials to be one run's: the skills' versions and
 * eval files, each runner's setup, the repeat count and the baseline. Not the machine, the
 * time or the shard.
 */
function configDigest(jobs: readonly Job[], baseline: boolean): string {
  const canon = jobs.map((j) => ({
    skill: j.skill.manifest.skill.name,
    version: j.skill.manifest.skill.version,
    evalFile: j.evalFile,
    repeat: j.repeat,
    runner: { ...j.runner },
  }));
  return createHash('sha256')
    .update(JSON.stringify({ baseline, jobs: canon }))
    .digest('hex')
    .slice(0, 16);
}

export function trialPath(skill: string, evalName: string, runner: string, baseline: boolean, index: number): string {
  return `${skill}/${evalName}/${runner}/${baseline ? 'baseline' : 'skill'}-${index + 1}`;
}

async function oneTrial(
  req: EvalRequest,
  job: Job,
  task: Task,
  index: number,
  ctx: {
    outDir: string;
    parentEnv: Readonly<Record<string, string | undefined>>;
    homes: readonly string[];
    backend: BackendStatus;
    tmpRoot?: string;
    signal?: AbortSignal;
  },
): Promise<TrialResult> {
  const name = job.skill.manifest.skill.name;
  const base = {
    index,
    baseline: !task.withSkill,
    task: task.text,
    ...(task.shouldTrigger !== undefined ? { shouldTrigger: task.shouldTrigger } : {}),
  };
  const tmp = mkdtempSync(join(ctx.tmpRoot ?? tmpdir(), 'skillsmith-eval-'));
  const stem = join(
    ctx.outDir,
    ...trialPath(name, job.evalFile.name, job.runner.id, !task.withSkill, index).split('/'),
  );
  try {
    let ws;
    try {
      ws = await makeWorkspace({
        dir: join(tmp, 'work'),
        ...(job.evalFile.fixture !== undefined ? { fixtureDir: join(job.skillDir, job.evalFile.fixture) } : {}),
        ...(task.withSkill ? { skill: { name, dir: job.skillDir } } : {}),
        target: job.runner.target,
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return {
        ...base,
        outcome: 'crashed',
        exitCode: null,
        durationMs: 0,
        passed: false,
        skillLoaded: 'unknown',
        tools: [],
        changed: [],
        message,
        assertions: judgeTrial(job.evalFile.assert, failed('crashed', message)),
      };
    }
    const run = await runTrialProcess({
      projectRoot: req.projectRoot,
      runner: job.runner,
      argv: commandFor(job.runner, task.text),
      workspace: ws.dir,
      ...(ws.skillDir ? { skillDir: ws.skillDir } : {}),
      runDir: join(tmp, 'run'),
      backend: ctx.backend,
      parentEnv: ctx.parentEnv,
      homes: ctx.homes,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    const transcript = readTranscript(job.runner.transcript, run.stdout, name);
    const usage = readUsage(job.runner.transcript, run.stdout);
    const after = await snapshot(ws.dir);
    const changed = changedPaths(ws.before, after);
    // A non-zero exit an exit_code assertion expects still needs a session that ran to its end:
    // an agent that crashed, or never got past its API key, is not one that chose to fail.
    const expectsExit = job.evalFile.assert.some((a) => a.kind === 'exit_code');
    const outcome: TrialResult['outcome'] =
      run.outcome === 'not-found'
        ? 'not-found'
        : run.outcome === 'refused'
          ? 'refused'
          : run.outcome === 'timeout'
            ? 'timeout'
            : run.outcome === 'cancelled'
              ? 'cancelled'
              : run.outcome !== 'exited' || (run.exitCode !== 0 && !(expectsExit && transcript.finished !== 'no'))
                ? 'crashed'
                : transcript.problem
                  ? 'unparseable'
                  : 'completed';
    const message =
      run.message ??
      (outcome === 'crashed'
        ? `the agent exited ${String(run.exitCode)}${firstLine(run.stderr)}`
        : outcome === 'unparseable'
          ? transcript.problem
          : undefined);
    const producer = `${name}@${job.skill.manifest.skill.version}`;
    const observation = {
      outcome,
      exitCode: run.exitCode,
      transcript,
      changed,
      artifacts: (ref: string): ArtifactSeen[] =>
        listArtifacts(ws.dir, ref).map((f) => ({ ...judgeArtifact(f, producer), rel: f.rel, doc: readJson(f.abs) })),
      ...(message !== undefined ? { message } : {}),
    };
    let assertions = judgeTrial(job.evalFile.assert, observation);
    if (job.evalFile.tier === 'trigger' && outcome === 'completed') {
      const want = task.shouldTrigger === true;
      const seen = transcript.skillLoaded;
      assertions = [
        seen === 'unknown'
          ? {
              kind: 'skill_triggered',
              status: 'unknown',
              detail: 'the transcript does not tell whether the skill was loaded',
            }
          : {
              kind: 'skill_triggered',
              status: (seen === 'yes') === want ? 'pass' : 'fail',
              detail: `${seen === 'yes' ? 'loaded' : 'not loaded'}; ${want ? 'should trigger' : 'should not trigger'}`,
            },
        ...assertions,
      ];
    }
    const passed = outcome === 'completed' && assertions.every((a) => a.status === 'pass');
    writeFileAtomic(`${stem}.transcript`, run.stdout);
    if (run.stderr) writeFileAtomic(`${stem}.stderr`, run.stderr);
    writeFileAtomic(`${stem}.diff`, workspaceDiff(ws.before, after, changed));
    return {
      ...base,
      outcome,
      exitCode: run.exitCode,
      durationMs: run.durationMs,
      passed,
      skillLoaded: transcript.skillLoaded,
      tools: transcript.tools,
      assertions,
      changed,
      ...(message !== undefined ? { message } : {}),
      ...(usage ? { usage } : {}),
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function failed(outcome: TrialResult['outcome'], message: string): Parameters<typeof judgeTrial>[1] {
  return {
    outcome,
    exitCode: null,
    transcript: { skillLoaded: 'unknown', tools: [], entries: [], output: '', finished: 'no' },
    changed: [],
    artifacts: () => [],
    message,
  };
}

function readJson(abs: string): unknown {
  try {
    return JSON.parse(readFileSync(abs, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function firstLine(s: string): string {
  const l = s.trim().split('\n').pop();
  return l ? ` (${l.slice(0, 200)})` : '';
}

function safeHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return homedir();
  }
}
