import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exceptionId, type PolicyException } from '../../../shared/policy/exceptions';
import type { ProjectConfig } from '../../../shared/project/config';
import { CodedError } from '../../../shared/result';
import { writeFileAtomic } from '../fs/atomic';
import { configDir, ensureConfigDir, realOr, stderrNotice, type Notice } from '../user/config-dir';

/**
 * The user's confirmations of `[[policy.exceptions]]` entries (spec D190): one file per user,
 * outside every project, because kitbash.toml is committed and a cloned repository may carry
 * an entry nobody here reviewed. Only an entry confirmed here, in this project, as written
 * now, takes effect.
 */
export const CONFIRMATIONS_FILE = 'exception-confirmations.json';
const FORMAT = 'skillsmith-exception-confirmations';
const VERSION = 1;

interface Confirmation {
  readonly project: string;
  readonly id: string;
  readonly skill: string;
  readonly confirmedAt: string;
}

interface ConfirmationsFile {
  readonly format: typeof FORMAT;
  readonly version: number;
  /** By `<project real path>\0<exception id>`. */
  readonly confirmations: Record<string, Confirmation>;
}

type Env = Readonly<Record<string, string | undefined>>;
export interface ConfirmOptions {
  readonly env?: Env;
  readonly notice?: Notice;
  readonly now?: Date;
}

const told = new Set<string>();

const keyOf = (project: string, id: string): string => `${project}\0${id}`;

function readConfirmations(dir: string, notice: Notice): ConfirmationsFile['confirmations'] {
  const file = join(dir, CONFIRMATIONS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const j = JSON.parse(text) as Partial<ConfirmationsFile>;
    if (j.format === FORMAT && j.version === VERSION && j.confirmations && typeof j.confirmations === 'object')
      return Object.fromEntries(
        Object.entries(j.confirmations).filter(
          ([k, r]) => typeof r?.project === 'string' && typeof r.id === 'string' && k === keyOf(r.project, r.id),
        ),
      );
  } catch {
    // reported below, as a foreign format is
  }
  // Said once per process: every reader of kitbash.toml passes here, and one line is enough.
  if (told.has(file)) return {};
  told.add(file);
  notice(
    `skillsmith: ignoring the damaged exception confirmations file ${file} — no [[policy.exceptions]] entry takes effect until confirmed again`,
  );
  return {};
}

/**
 * kitbash.toml as it applies for this user: entries confirmed here keep their effect, the
 * rest move to `unconfirmedExceptions`. Every reader of the project config for a verdict
 * goes through this (main/services/project/config.ts), so no surface can disagree.
 */
export function withConfirmations(
  projectRoot: string,
  config: ProjectConfig,
  opts: ConfirmOptions = {},
): ProjectConfig {
  if (config.exceptions.length === 0) return config;
  const project = realOr(projectRoot);
  const recorded = readConfirmations(configDir(opts.env), opts.notice ?? stderrNotice);
  const confirmed = (e: PolicyException): boolean => recorded[keyOf(project, exceptionId(e))] !== undefined;
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
  opts: ConfirmOptions = {},
): void {
  if (entries.length === 0) return;
  const dir = ensureConfigDir(opts.env);
  const project = realOr(projectRoot);
  const confirmations = readConfirmations(dir, opts.notice ?? stderrNotice);
  const confirmedAt = (opts.now ?? new Date()).toISOString();
  for (const e of entries) {
    const id = exceptionId(e);
    confirmations[keyOf(project, id)] = { project, id, skill: e.skill, confirmedAt };
  }
  const file: ConfirmationsFile = { format: FORMAT, version: VERSION, confirmations };
  writeFileAtomic(join(dir, CONFIRMATIONS_FILE), JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
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
  opts: ConfirmOptions = {},
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
