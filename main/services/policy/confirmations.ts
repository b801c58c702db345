import { exceptionId, type PolicyException } from '../../../shared/policy/exceptions';
import type { ProjectConfig } from '../../../shared/project/config';
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
  type Notice,
  type ProjectRecord,
  type RecordOptions,
  type UserRecords,
} from '../user/config-dir';

/**
 * The user's confirmations of `[[policy.exceptions]]` entries (spec D190): one file per user,
 * outside every project, because kitbash.toml is committed and a cloned repository may carry
 * an entry nobody here reviewed. Only an entry confirmed here, in this project, as written
 * now, takes effect.
 */
export const CONFIRMATIONS_FILE = 'exception-confirmations.json';

interface Confirmation extends ProjectRecord {
  readonly skill: string;
  readonly confirmedAt: string;
}

/** By `<project real path>\0<exception id>`. */
const CONFIRMATIONS: UserRecords<Confirmation> = {
  file: CONFIRMATIONS_FILE,
  format: 'skillsmith-exception-confirmations',
  version: 1,
  field: 'confirmations',
  valid: isProjectRecord,
  damaged: (path) =>
    `skillsmith: ignoring the damaged exception confirmations file ${path} — no [[policy.exceptions]] entry takes effect until confirmed again`,
};

// Said once per process: every reader of kitbash.toml passes here, and one line is enough.
const told = new Set<string>();

function readConfirmations(dir: string, notice: Notice): Record<string, Confirmation> {
  const tell = (line: string): void => {
    told.add(dir);
    notice(line);
  };
  return readUserRecords(dir, CONFIRMATIONS, tell, told.has(dir));
}

/**
 * kitbash.toml as it applies for this user: entries confirmed here keep their effect, the
 * rest move to `unconfirmedExceptions`. Every reader of the project config for a verdict
 * goes through this (main/services/project/config.ts), so no surface can disagree.
 */
export function withConfirmations(projectRoot: string, config: ProjectConfig, opts: RecordOptions = {}): ProjectConfig {
  if (config.exceptions.length === 0) return config;
  const project = realOr(projectRoot);
  const recorded = readConfirmations(configDir(opts.env), opts.notice ?? stderrNotice);
  const confirmed = (e: PolicyException): boolean => recorded[projectRecordKey(project, exceptionId(e))] !== undefined;
  return {
    ...config,
    exceptions: config.exceptions.filter(confirmed),
    unconfirmedExceptions: config.exceptions.filter((e) => !confirmed(e)),
  };
}

/** Record `entries` of this project as confirmed by this user (the file owner-only, written atomically). */
export function recordConfirmations(
  projectRoot: string,
  entries: readonly PolicyException[],
  opts: RecordOptions = {},
): void {
  if (entries.length === 0) return;
  const dir = ensureConfigDir(opts.env);
  const project = realOr(projectRoot);
  const confirmations = readConfirmations(dir, opts.notice ?? stderrNotice);
  const confirmedAt = (opts.now ?? new Date()).toISOString();
  for (const e of entries) {
    const id = exceptionId(e);
    confirmations[projectRecordKey(project, id)] = { project, id, skill: e.skill, confirmedAt };
  }
  writeUserRecords(dir, CONFIRMATIONS, confirmations);
}

/**
 * Confirm entries of the project's kitbash.toml as they are written now: by id (as listed by
 * `skillsmith exceptions list` or shown in the app), or every unconfirmed one. An id that
 * names no entry is refused — nothing is recorded then. Returns what was confirmed.
 */
export function confirmExceptions(
  projectRoot: string,
  config: ProjectConfig,
  which: { readonly ids: readonly string[] } | 'all',
  opts: RecordOptions = {},
): readonly PolicyException[] {
  const pending = config.unconfirmedExceptions ?? [];
  const known = [...config.exceptions, ...pending];
  const chosen =
    which === 'all'
      ? pending
      : which.ids.map((id) => {
          const e = known.find((x) => exceptionId(x) === id);
          if (!e)
            throw new CodedError(
              'invalid-request',
              `kitbash.toml has no [[policy.exceptions]] entry with id ${id} (it may have been edited since it was listed) — nothing confirmed`,
            );
          return e;
        });
  recordConfirmations(projectRoot, chosen, opts);
  return chosen;
}
