import { plural } from '../../../shared/text/format';
import { evalHuman, evalJson, evalJunit } from '../../../shared/evals/report';
import { usageText } from '../../../shared/evals/usage';
import { parseShard, runHeader, type Shard } from '../../../shared/evals/shard';
import { MAX_REPEAT } from '../../../shared/evals/parse';
import { writeFileAtomic } from '../../services/fs/atomic';
import { resolveInside } from '../../services/fs/contain';
import { runEvals, type EvalEvent } from '../../services/evals/run';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { isDirectory } from '../../services/fs/probe';
import { CodedError } from '../../../shared/result';
import { approveRunnerCommand, approveRunnersFirst } from './eval-approve';

const FLAGS = {
  runner: { type: 'string' },
  'approve-runner': { type: 'string' },
  repeat: { type: 'string' },
  baseline: { type: 'boolean' },
  json: { type: 'boolean' },
  junit: { type: 'string' },
  jobs: { type: 'string' },
  shard: { type: 'string' },
} as const;

/** Above this, more trials at once only queue on the machine's cores and the agent's rate limits. */
const MAX_JOBS = 256;

/**
 * `skillsmith eval [skill ...] [--runner ID] [--repeat N] [--baseline] [--jobs N] [--shard K/N]
 * [--json] [--junit FILE]`, `skillsmith eval merge <results.json>…` (eval-merge.ts) and
 * `skillsmith eval --approve-runner ID`.
 * Exit 0 when every eval meets its threshold, 1 otherwise, 2 for usage errors and a
 * runner that cannot start (not installed, not approved, no sandbox). A shard judges no
 * threshold: its trials are a part of each eval, and `eval merge` judges the whole.
 */
export async function runEval(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  // A skill named "merge" is still reachable: `skillsmith eval -- merge`.
  if (argv[0] === 'merge') return (await import('./eval-merge')).runEvalMerge(argv.slice(1), io);
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (flags['approve-runner'] !== undefined) {
    if (positionals.length || Object.keys(flags).length > 1)
      throw new CodedError('invalid-request', '--approve-runner ID takes nothing else: approve, then run');
    return approveRunnerCommand(flags['approve-runner'], io);
  }
  let repeat: number | undefined;
  if (flags.repeat !== undefined) {
    repeat = Number(flags.repeat);
    if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT)
      throw new CodedError('invalid-request', `--repeat ${flags.repeat}: want a whole number from 1 to ${MAX_REPEAT}`);
  }
  let jobs: number | undefined;
  if (flags.jobs !== undefined) {
    jobs = Number(flags.jobs);
    if (!Number.isInteger(jobs) || jobs < 1 || jobs > MAX_JOBS)
      throw new CodedError('invalid-request', `--jobs ${flags.jobs}: want a whole number from 1 to ${MAX_JOBS}`);
  }
  let shard: Shard | undefined;
  if (flags.shard !== undefined) {
    const s = parseShard(flags.shard);
    if (typeof s === 'string') throw new CodedError('invalid-request', s);
    shard = s;
  }
  const junitPath = flags.junit !== undefined ? junitTarget(io.cwd, flags.junit) : undefined;
  const refused = await approveRunnersFirst(
    {
      projectRoot: io.cwd,
      skills: positionals,
      ...(flags.runner !== undefined ? { runner: flags.runner } : {}),
      baseline: false,
    },
    io,
  );
  if (refused !== undefined) return refused;
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  let run;
  try {
    run = await runEvals(
      {
        projectRoot: io.cwd,
        skills: positionals,
        ...(flags.runner !== undefined ? { runner: flags.runner } : {}),
        ...(repeat !== undefined ? { repeat } : {}),
        ...(jobs !== undefined ? { jobs } : {}),
        ...(shard ? { shard } : {}),
        baseline: flags.baseline === true,
      },
      { signal: controller.signal, onEvent: (e) => (flags.json ? undefined : progress(e, io)) },
    );
  } finally {
    process.off('SIGINT', onSignal);
  }
  for (const p of run.problems) io.err(`${p}\n`);
  for (const w of run.warnings) io.err(`warning: ${w}\n`);
  if (flags.json) io.out(evalJson(run.results, run.problems, runHeader(run)));
  else if (run.results.length === 0)
    io.out('no audit, behavioral or trigger evals to run (the static tier runs in "skillsmith test").\n');
  else io.out(`${evalHuman(run.results)}results and transcripts: ${run.dir}/\n`);
  if (shard && !flags.json)
    io.out(
      `shard ${shard.index}/${shard.count}: thresholds are judged once the shards are joined — "skillsmith eval merge" their --json outputs\n`,
    );
  if (junitPath !== undefined) writeFileAtomic(junitPath, evalJunit(run.results));
  if (run.runnerUnavailable) {
    const why = run.results.find((r) => r.error)?.error;
    io.err(`skillsmith eval: a runner could not start${why ? ` — ${why}` : ''}\n`);
    return EXIT.usage;
  }
  const judged = shard ? [] : run.results;
  return run.problems.length || run.cancelled || judged.some((r) => !r.passed) ? EXIT.failed : EXIT.ok;
}

/** Where `--junit FILE` may write: inside the project, and not onto a folder. */
export function junitTarget(cwd: string, file: string): string {
  const path = resolveInside(cwd, file);
  if (!path) throw new CodedError('invalid-request', `refusing to write the JUnit report outside the project: ${file}`);
  if (isDirectory(path)) throw new CodedError('invalid-request', `--junit ${file}: is a folder — name the report file`);
  return path;
}

function progress(e: EvalEvent, io: CliIo): void {
  if (e.type === 'planned' && e.total > 0) io.err(`eval run ${e.runId}: ${plural(e.total, 'trial')}\n`);
  if (e.type === 'trial') {
    const t = e.trial;
    io.err(
      `  [${e.done}/${e.total}] ${e.skill} ${e.eval} (${e.runner}${t.baseline ? ', baseline' : ''}) trial ${t.index + 1}: ${t.passed ? 'pass' : t.outcome === 'completed' ? 'fail' : t.outcome} (${(t.durationMs / 1000).toFixed(1)} s${t.usage ? `, ${usageText(t.usage)}` : ''})\n`,
    );
  }
}
