import { join } from 'node:path';
import { CodedError, formatError } from '../../../shared/result';
import { readScanners, type ScannerDef } from '../../../shared/scanners/config';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { confirmScanners, confirmedScanners, SCANNER_CONFIRMATIONS_FILE } from '../../services/scanners/confirmations';
import { findProgram } from '../../services/scanners/run';
import { readProjectConfig } from '../../services/project/config';
import { configDir } from '../../services/user/config-dir';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';

const FLAGS = { json: { type: 'boolean' }, all: { type: 'boolean' } } as const;

const describe = (d: ScannerDef): string =>
  escapeTerminal(`${d.name}: ${JSON.stringify(d.command)} (timeout ${d.timeout} s)`);

/**
 * `scanners [list] [--json]` and `scanners confirm <id>... | --all` (SPEC D252): which
 * `[scanners.<name>]` commands of kitbash.toml the install review may run for this user, and
 * the one explicit step that lets a command that arrived with the project run.
 */
export function runScanners(argv: readonly string[], io: CliIo): ExitCode {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const [verb = 'list', ...ids] = positionals;
  const config = readProjectConfig(io.cwd);
  if (!config.ok) throw new CodedError('invalid-input', formatError(config.error));
  const sc = readScanners(config.value.raw);
  if (!sc.ok) throw new CodedError('invalid-input', formatError(sc.error));
  const defs = sc.value.scanners;
  if (verb === 'list') {
    if (ids.length || flags.all) throw new CodedError('invalid-request', 'scanners list takes no arguments');
    const confirmed = confirmedScanners(io.cwd, defs);
    const rows = defs.map((d) => ({
      id: d.id,
      name: d.name,
      command: [...d.command],
      timeout: d.timeout,
      confirmed: confirmed.has(d.id),
      installed: findProgram(d.command[0]!, io.cwd) !== undefined,
    }));
    if (flags.json) {
      io.out(`${JSON.stringify({ blockAt: sc.value.blockAt ?? null, scanners: rows }, null, 2)}\n`);
      return EXIT.ok;
    }
    if (!defs.length) io.out('kitbash.toml names no [scanners]\n');
    defs.forEach((d, i) => {
      const r = rows[i]!;
      io.out(
        `${d.id}  ${r.confirmed ? 'confirmed  ' : 'unconfirmed'}  ${describe(d)}${r.installed ? '' : ` — "${escapeTerminal(d.command[0]!)}" not found on PATH`}\n`,
      );
    });
    if (defs.length)
      io.out(
        sc.value.blockAt
          ? `findings at ${sc.value.blockAt} or above block an install ([policy] block_scanner_findings)\n`
          : 'findings are advisory ([policy] block_scanner_findings is not set)\n',
      );
    if (rows.some((r) => !r.confirmed))
      io.out(
        'an unconfirmed scanner does not run — read its command, then: skillsmith scanners confirm <id> (or --all)\n',
      );
    return EXIT.ok;
  }
  if (verb !== 'confirm') throw new CodedError('invalid-request', `unknown scanners command "${verb}" (list, confirm)`);
  if (flags.all === ids.length > 0)
    throw new CodedError(
      'invalid-request',
      'scanners confirm takes scanner ids (from scanners list) or --all, not both',
    );
  const done = confirmScanners(io.cwd, defs, flags.all ? 'all' : { ids });
  for (const d of done) io.out(`confirmed ${d.id}  ${describe(d)}\n`);
  io.out(
    done.length
      ? `recorded for you in ${join(configDir(), SCANNER_CONFIRMATIONS_FILE)}; editing a command asks again\n`
      : 'nothing to confirm: kitbash.toml names no [scanners]\n',
  );
  return EXIT.ok;
}
