import { escapeTerminal } from '../../../shared/terminal/escape';
import { plural } from '../../../shared/text/format';
import { verifyProject } from '../../services/verify';
import { renderVerifySarif } from '../../services/verify/sarif';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { reportTarget, SARIF_REPORT, writeReport } from '../report-file';
import { VERSION } from '../version';

const FLAGS = { frozen: { type: 'boolean' }, json: { type: 'boolean' }, sarif: { type: 'string' } } as const;

/**
 * `verify [--frozen] [--json] [--sarif FILE]`: installed skills against kitbash.lock and
 * agents' files against what compile writes (SPEC D202–D205). Read-only, for CI.
 */
export function runVerify(argv: readonly string[], io: CliIo): ExitCode {
  const { flags } = parseCommandArgs(argv, FLAGS);
  const sarifFile = flags.sarif === undefined ? undefined : reportTarget(io.cwd, SARIF_REPORT, flags.sarif);
  const report = verifyProject(io.cwd, flags.frozen === true);

  if (flags.json) io.out(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const f of report.findings)
      (f.level === 'error' ? io.err : io.out)(
        `  ${f.level === 'error' ? '✗' : '⚠'} ${escapeTerminal(f.path)}: ${escapeTerminal(f.message)}\n`,
      );
    const { errors, warnings } = report.counts;
    const checked = `${plural(report.skills.length, 'skill')} checked`;
    if (errors) io.err(`verify: ${plural(errors, 'problem')}, ${plural(warnings, 'warning')} (${checked})\n`);
    else io.out(`verify: ok — ${checked}${warnings ? `, ${plural(warnings, 'warning')}` : ''}\n`);
  }
  if (
    sarifFile !== undefined &&
    !writeReport(io, 'verify', sarifFile, renderVerifySarif(report, VERSION), flags.json === true)
  )
    return EXIT.failed;
  return report.ok ? EXIT.ok : EXIT.failed;
}
