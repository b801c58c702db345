import { plural } from '../../../shared/text/format';
import { resolve } from 'node:path';
import { evalHuman, evalJson, evalJunit } from '../../../shared/evals/report';
import { runHeader } from '../../../shared/evals/shard';
import { CodedError } from '../../../shared/result';
import { mergeEvalRuns } from '../../services/evals/merge';
import { writeFileAtomic } from '../../services/fs/atomic';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { junitTarget } from './eval';

const FLAGS = { json: { type: 'boolean' }, junit: { type: 'string' } } as const;

/**
 * `skillsmith eval merge <results.json>… [--json] [--junit FILE]`: the shards of a
 * `--shard K/N` CI matrix as one run. Exit as `eval` does for the joined run; 1 with a
 * one-line reason naming the file when the shards do not make one run.
 */
export function runEvalMerge(argv: readonly string[], io: CliIo): ExitCode {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length === 0)
    throw new CodedError('invalid-request', 'eval merge: name the shards’ results files (their --json output)');
  const junitPath = flags.junit !== undefined ? junitTarget(io.cwd, flags.junit) : undefined;
  const merged = mergeEvalRuns(
    io.cwd,
    positionals.map((file) => ({ file, abs: resolve(io.cwd, file) })),
  );
  if (!merged.ok) throw CodedError.of(merged.error);
  const run = merged.value;
  for (const p of run.problems) io.err(`${p}\n`);
  if (flags.json) io.out(evalJson(run.results, run.problems, runHeader(run)));
  else io.out(`${evalHuman(run.results)}merged ${plural(run.mergedFrom?.length ?? 0, 'shard')} into ${run.dir}/\n`);
  if (junitPath !== undefined) writeFileAtomic(junitPath, evalJunit(run.results));
  if (run.runnerUnavailable) {
    const why = run.results.find((r) => r.error)?.error;
    io.err(`skillsmith eval merge: a runner could not start in a shard${why ? ` — ${why}` : ''}\n`);
    return EXIT.usage;
  }
  return run.problems.length || run.results.some((r) => !r.passed) ? EXIT.failed : EXIT.ok;
}
