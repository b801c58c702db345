import { evalHuman, evalJson, evalJunit } from '../../../shared/evals/report';
import { usageText } from '../../../shared/evals/usage';
import { MAX_REPEAT } from '../../../shared/evals/parse';
import { writeFileAtomic } from '../../services/fs/atomic';
import { resolveInside } from '../../services/fs/contain';
import { runEvals, type EvalEvent } from '../../services/evals/run';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { isDirectory } from '../../services/fs/probe';
import { CodedError } from '../../../shared/result';

const FLAGS = {
  runner: { type: 'string' },
  repeat: { type: 'string' },
  baseline: { type: 'boolean' },
  json: { type: 'boolean' },
  junit: { type: 'string' },
  jobs: { type: 'string' },
} as const;

/** Above this, more trials at once only queue on the machine's cores and the agent's rate limits. */
const MAX_JOBS = 256;

/**
 * `skillsmith eval [skill ...] [--runner ID] [--repeat N] [--baseline] [--jobs N] [--json] [--junit FILE]`.
 * Exit 0 when every eval meets its threshold, 1 otherwise, 2 for usage errors and a
 * runner that cannot start (not installed, no sandbox).
 */
export async function runEval(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
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
  let junitPath: string | undefined;
  if (flags.junit !== undefined) {
    junitPath = resolveInside(io.cwd, flags.junit);
    if (!junitPath)
      throw new CodedError('invalid-request', `refusing to write the JUnit report outside the project: ${flags.junit}`);
    if (isDirectory(junitPath))
      throw new CodedError('invalid-request', `--junit ${flags.junit}: is a folder — name the report file`);
  }
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
        baseline: flags.baseline === true,
      },
      { signal: controller.signal, onEvent: (e) => (flags.json ? undefined : progress(e, io)) },
    );
  } finally {
    process.off('SIGINT', onSignal);
  }
  for (const p of run.problems) io.err(`${p}\n`);
  if (flags.json) io.out(evalJson(run.results, run.problems));
  else if (run.results.length === 0)
    io.out('no audit, behavioral or trigger evals to run (the static tier runs in "skillsmith test").\n');
  else io.out(`${evalHuman(run.results)}results and transcripts: ${run.dir}/\n`);
  if (junitPath !== undefined) writeFileAtomic(junitPath, evalJunit(run.results));
  if (run.runnerUnavailable) {
    const why = run.results.find((r) => r.error)?.error;
    io.err(`skillsmith eval: a runner could not start${why ? ` — ${why}` : ''}\n`);
    return EXIT.usage;
  }
  return run.problems.length || run.cancelled || run.results.some((r) => !r.passed) ? EXIT.failed : EXIT.ok;
}

function progress(e: EvalEvent, io: CliIo): void {
  if (e.type === 'planned' && e.total > 0) io.err(`eval run ${e.runId}: ${e.total} trial(s)\n`);
  if (e.type === 'trial') {
    const t = e.trial;
    io.err(
      `  [${e.done}/${e.total}] ${e.skill} ${e.eval} (${e.runner}${t.baseline ? ', baseline' : ''}) trial ${t.index + 1}: ${t.passed ? 'pass' : t.outcome === 'completed' ? 'fail' : t.outcome} (${(t.durationMs / 1000).toFixed(1)} s${t.usage ? `, ${usageText(t.usage)}` : ''})\n`,
    );
  }
}
