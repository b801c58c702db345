import type { ScannerDef } from '../../../shared/scanners/config';
import { CodedError } from '../../../shared/result';
import {
  configDir,
  ensureConfigDir,
  isProjectRecord,
  projectRecordKey,
  readUserRecords,
  realOr,
  stderrNotice,
  writeUserRecords,
  type ProjectRecord,
  type RecordOptions,
  type UserRecords,
} from '../user/config-dir';

/**
 * Which `[scanners.<name>]` commands this user let run in which project (SPEC D252). A
 * command in kitbash.toml may have arrived with a clone; running it is running whatever
 * program it names, so it runs only once confirmed here, as written now (name, command and
 * timeout: the scanner's id).
 */
export const SCANNER_CONFIRMATIONS_FILE = 'scanner-confirmations.json';

interface Confirmation extends ProjectRecord {
  readonly name: string;
  readonly command: readonly string[];
  readonly confirmedAt: string;
}

const RECORDS: UserRecords<Confirmation> = {
  file: SCANNER_CONFIRMATIONS_FILE,
  format: 'skillsmith-scanner-confirmations',
  version: 1,
  field: 'confirmations',
  valid: isProjectRecord,
  damaged: (path) =>
    `skillsmith: ignoring the damaged scanner confirmations file ${path} — no [scanners] command runs until confirmed again`,
};

/** The ids of `defs` this user confirmed in this project. */
export function confirmedScanners(
  projectRoot: string,
  defs: readonly ScannerDef[],
  opts: RecordOptions = {},
): ReadonlySet<string> {
  if (!defs.length) return new Set();
  const project = realOr(projectRoot);
  const recorded = readUserRecords(configDir(opts.env), RECORDS, opts.notice ?? stderrNotice);
  return new Set(defs.filter((d) => recorded[projectRecordKey(project, d.id)] !== undefined).map((d) => d.id));
}

/**
 * Confirm scanners of the project's kitbash.toml as written now, by id or all of them. An id
 * that names no scanner is refused and nothing is recorded. Returns what was confirmed.
 */
export function confirmScanners(
  projectRoot: string,
  defs: readonly ScannerDef[],
  which: { readonly ids: readonly string[] } | 'all',
  opts: RecordOptions = {},
): readonly ScannerDef[] {
  const chosen =
    which === 'all'
      ? defs
      : which.ids.map((id) => {
          const d = defs.find((x) => x.id === id);
          if (!d)
            throw new CodedError(
              'invalid-request',
              `kitbash.toml has no [scanners] entry with id ${id} (it may have been edited since it was listed) — nothing confirmed`,
            );
          return d;
        });
  if (!chosen.length) return chosen;
  const dir = ensureConfigDir(opts.env);
  const project = realOr(projectRoot);
  const records = readUserRecords(dir, RECORDS, opts.notice ?? stderrNotice);
  const confirmedAt = (opts.now ?? new Date()).toISOString();
  for (const d of chosen)
    records[projectRecordKey(project, d.id)] = {
      project,
      id: d.id,
      name: d.name,
      command: [...d.command],
      confirmedAt,
    };
  writeUserRecords(dir, RECORDS, records);
  return chosen;
}
