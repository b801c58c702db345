import { CodedError } from '../../../shared/result';
import { projectBom } from '../../services/sbom';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { reportTarget, writeReport, type ReportKind } from '../report-file';
import { VERSION } from '../version';

const FLAGS = { output: { type: 'string', short: 'o' } } as const;

const SBOM: ReportKind = { flag: '--output', what: 'SBOM', format: 'CycloneDX 1.6', example: 'skills.cdx.json' };

/**
 * `sbom [--output FILE]`: the installed skills as CycloneDX 1.6 JSON (SPEC D207–D209), on
 * stdout or written atomically to FILE inside the project.
 */
export function runSbom(argv: readonly string[], io: CliIo): ExitCode {
  const { flags } = parseCommandArgs(argv, FLAGS);
  const target = flags.output === undefined ? undefined : reportTarget(io.cwd, SBOM, flags.output);
  const bom = projectBom(io.cwd, VERSION, clock());
  if (!bom.ok) throw CodedError.of(bom.error);
  const text = `${JSON.stringify(bom.value, null, 2)}\n`;
  if (target === undefined) {
    io.out(text);
    return EXIT.ok;
  }
  return writeReport(io, 'sbom', target, text, false) ? EXIT.ok : EXIT.failed;
}

/** Now, or SOURCE_DATE_EPOCH (reproducible-builds.org) so a build can pin the timestamp. */
function clock(): Date {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return epoch !== undefined && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
}
