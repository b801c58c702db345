import { relative } from 'node:path';
import { describeFsError } from '../services/fs/describe-error';
import { resolveInside } from '../services/fs/contain';
import { writeFileInside } from '../services/fs/inside';
import { isDirectory } from '../services/fs/probe';
import { CodedError, isCoded } from '../../shared/result';
import type { CliIo } from './io';

/** A report file a verb writes on request: `lint`/`verify --sarif`, `sbom --output`. */
export interface ReportKind {
  /** The flag that names it, e.g. `--sarif`. */
  readonly flag: string;
  /** What it holds, for messages: `SARIF report`, `SBOM`. */
  readonly what: string;
  /** What it is written as, for the `→ FILE (…)` notice. */
  readonly format: string;
  /** A file name to suggest when a folder is named. */
  readonly example: string;
}

export interface ReportFile extends ReportKind {
  readonly file: string;
  readonly path: string;
}

export const SARIF_REPORT: ReportKind = {
  flag: '--sarif',
  what: 'SARIF report',
  format: 'SARIF 2.1.0',
  example: 'skillsmith.sarif',
};

/**
 * Where a report goes, checked before any work is done: inside the project (SPEC §10.5,
 * D14) and not a folder. Throws the usage error otherwise.
 */
export function reportTarget(cwd: string, kind: ReportKind, file: string): ReportFile {
  const path = resolveInside(cwd, file);
  if (!path) throw new CodedError('invalid-request', `refusing to write the ${kind.what} outside the project: ${file}`);
  if (isDirectory(path))
    throw new CodedError(
      'invalid-request',
      `${kind.flag} ${file}: is a folder — name the report file, e.g. ${file.replace(/\/?$/, `/${kind.example}`)}`,
    );
  return { ...kind, file, path };
}

/** Write a report checked by `reportTarget`, atomically; false (with one line on stderr) when it cannot be written. */
export function writeReport(io: CliIo, verb: string, target: ReportFile, text: string, quiet: boolean): boolean {
  try {
    // Checked above, written through folders opened inside the project (no swap redirects it).
    writeFileInside(io.cwd, relative(io.cwd, target.path), text);
  } catch (e) {
    io.err(
      `skillsmith ${verb}: cannot write the ${target.what} ${target.file}: ${isCoded(e, 'outside-project') ? e.message : describeFsError(e)}\n`,
    );
    return false;
  }
  (quiet ? io.err : io.out)(`→ ${target.file} (${target.format})\n`);
  return true;
}
