import { join } from 'node:path';
import { exceptionId, type PolicyException } from '../../../shared/policy/exceptions';
import { CodedError, formatError } from '../../../shared/result';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { CONFIRMATIONS_FILE, confirmExceptions } from '../../services/policy/confirmations';
import { readProjectConfig } from '../../services/project/config';
import { configDir } from '../../services/user/config-dir';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';

const FLAGS = { json: { type: 'boolean' }, all: { type: 'boolean' } } as const;

const describe = (e: PolicyException): string =>
  escapeTerminal(`${e.skill} ${e.check} at ${e.file}:${e.line} — accepted by ${e.by}: ${e.reason}`);

/**
 * `exceptions [list] [--json]` and `exceptions confirm <id>... | --all` (spec D190): which
 * [[policy.exceptions]] entries of kitbash.toml take effect for this user, and the one
 * explicit step that makes an entry that arrived with the project take effect.
 */
export function runExceptions(argv: readonly string[], io: CliIo): ExitCode {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const [verb = 'list', ...ids] = positionals;
  const config = readProjectConfig(io.cwd);
  if (!config.ok) throw new CodedError('invalid-input', formatError(config.error));
  const { exceptions: confirmed, unconfirmedExceptions: pending = [], exceptionProblems } = config.value;
  if (verb === 'list') {
    if (ids.length || flags.all) throw new CodedError('invalid-request', 'exceptions list takes no arguments');
    if (flags.json) {
      const row = (e: PolicyException, state: string) => ({ id: exceptionId(e), state, ...e });
      io.out(
        `${JSON.stringify([...confirmed.map((e) => row(e, 'confirmed')), ...pending.map((e) => row(e, 'unconfirmed'))], null, 2)}\n`,
      );
      return EXIT.ok;
    }
    for (const e of confirmed) io.out(`${exceptionId(e)}  confirmed    ${describe(e)}\n`);
    for (const e of pending)
      io.out(`${exceptionId(e)}  unconfirmed  ${describe(e)} (arrived with the project, not confirmed by you)\n`);
    for (const p of exceptionProblems) io.out(`ignored      ${escapeTerminal(p)}\n`);
    if (!confirmed.length && !pending.length && !exceptionProblems.length)
      io.out('kitbash.toml has no [[policy.exceptions]] entries\n');
    else if (pending.length)
      io.out(
        `${pending.length === 1 ? 'an unconfirmed entry accepts' : `${pending.length} unconfirmed entries accept`} nothing — read ${pending.length === 1 ? 'it' : 'them'}, then: skillsmith exceptions confirm <id> (or --all)\n`,
      );
    return EXIT.ok;
  }
  if (verb !== 'confirm')
    throw new CodedError('invalid-request', `unknown exceptions command "${verb}" (list, confirm)`);
  if (flags.all === ids.length > 0)
    throw new CodedError(
      'invalid-request',
      'exceptions confirm takes entry ids (from exceptions list) or --all, not both',
    );
  const done = confirmExceptions(io.cwd, config.value, flags.all ? 'all' : { ids });
  for (const e of done) io.out(`confirmed ${exceptionId(e)}  ${describe(e)}\n`);
  io.out(
    done.length
      ? `recorded for you in ${join(configDir(), CONFIRMATIONS_FILE)}; editing an entry asks again\n`
      : 'nothing to confirm: no entry is waiting for your confirmation\n',
  );
  return EXIT.ok;
}
