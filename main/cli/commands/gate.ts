import { type CliIo, type ExitCode } from '../io';
import { parseRunArgs, runAndReport } from './run';
import { CodedError } from '../../../shared/result';

/** `skillsmith gate <skill> [--script NAME] [--timeout S] [--env NAME[=VALUE]]... [--unconfined] [--raw] [-- args]` */
export function runGate(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const p = parseRunArgs(argv, true, process.env);
  if (p.positionals.length !== 1)
    throw new CodedError('invalid-request', 'expected <skill> [-- args] (an installed gate-mode skill)');
  return runAndReport('gate', p, io, p.positionals[0]!, p.script);
}
