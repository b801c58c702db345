import { homedir, userInfo } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import {
  grantChanges,
  grantKey,
  notApprovedMessage,
  refusedRead,
  refusedReadMessage,
  runnerGrant,
  type PendingApproval,
  type RunnerGrant,
} from '../../../shared/evals/consent';
import type { RunnerConfig } from '../../../shared/evals/model';
import { findRunner, PRESETS, readRunners } from '../../../shared/evals/runners';
import { CodedError, formatError } from '../../../shared/result';
import type { Surface } from '../../../shared/text/surface';
import { readProjectConfig } from '../project/config';
import {
  configDir,
  ensureConfigDir,
  readUserRecords,
  realOr,
  stderrNotice,
  writeUserRecords,
  type Notice,
  type UserRecords,
} from '../user/config-dir';

/**
 * The user's runner approvals (SPEC.md "Evals", Runner approval): one file per user, outside
 * every project, since a project's own files are exactly what the approval is about.
 */
export const APPROVALS_FILE = 'runner-approvals.json';

interface ApprovalRecord {
  readonly project: string;
  readonly runner: string;
  readonly approvedAt: string;
  readonly grant: RunnerGrant;
}

type Env = Readonly<Record<string, string | undefined>>;

/** By grantKey: an approval covers exactly one definition of one runner in one project. */
const APPROVALS: UserRecords<ApprovalRecord> = {
  file: APPROVALS_FILE,
  format: 'skillsmith-runner-approvals',
  version: 1,
  field: 'approvals',
  valid: (_, r) => typeof r?.project === 'string' && typeof r.runner === 'string' && Array.isArray(r.grant?.command),
  damaged: (path) =>
    `skillsmith: ignoring the damaged runner approvals file ${path} — runners will ask for approval again`,
};

/** The invoking user's home folders, real and as named, for the read refusals. */
function homes(env: Env): string[] {
  const named = [env.HOME, env.USERPROFILE, homedir()];
  try {
    named.push(userInfo().homedir);
  } catch {
    // no passwd entry (a container's arbitrary uid): the others still count
  }
  const out = new Set<string>();
  for (const h of named) {
    if (!h) continue;
    out.add(resolve(h));
    out.add(realOr(h));
  }
  return [...out];
}

/**
 * The grant of a runner in this project: its reads resolved as the trial resolves them
 * (relative to the project), each refused if it reaches the root, a home, or a credential
 * folder — as named or through a symlink. Throws `invalid-request` naming the path.
 */
export function grantFor(projectRoot: string, runner: RunnerConfig, env: Env = process.env): RunnerGrant {
  const h = homes(env);
  const reads = runner.read.map((r) => (isAbsolute(r) ? resolve(r) : resolve(projectRoot, r)));
  for (const [i, abs] of reads.entries()) {
    const why = refusedRead(abs, h) ?? refusedRead(realOr(abs), h);
    if (why) throw new CodedError('invalid-request', refusedReadMessage(runner.id, runner.read[i]!, why));
  }
  return runnerGrant(runner, reads);
}

/** One runner as the user would be asked about it: approved as defined now, or not and why. */
export interface RunnerStatus extends PendingApproval {
  /** grantKey of this definition in this project: what an approval from the app is bound to. */
  readonly key: string;
  readonly approved: boolean;
}

/** Each runner once (first occurrence), with whether this definition of it is approved here. */
export function runnerStatuses(
  projectRoot: string,
  runners: readonly RunnerConfig[],
  opts: { env?: Env; notice?: Notice } = {},
): RunnerStatus[] {
  const env = opts.env ?? process.env;
  const project = realOr(projectRoot);
  const recorded = Object.values(readUserRecords(configDir(env), APPROVALS, opts.notice ?? stderrNotice));
  const keys = new Set(recorded.map((r) => grantKey(r.grant, r.project)));
  const out: RunnerStatus[] = [];
  for (const r of runners) {
    if (out.some((s) => s.grant.id === r.id)) continue;
    const grant = grantFor(projectRoot, r, env);
    const key = grantKey(grant, project);
    if (keys.has(key)) {
      out.push({ grant, key, approved: true, changes: [] });
      continue;
    }
    const last = recorded
      .filter((x) => x.project === project && x.runner === r.id)
      .sort((a, b) => (a.approvedAt < b.approvedAt ? 1 : -1))[0];
    out.push({ grant, key, approved: false, changes: last ? grantChanges(last.grant, grant) : [] });
  }
  return out;
}

/** Runners the user has not approved for this project as they are defined now. */
export function pendingApprovals(
  projectRoot: string,
  runners: readonly RunnerConfig[],
  opts: { env?: Env; notice?: Notice } = {},
): PendingApproval[] {
  return runnerStatuses(projectRoot, runners, opts)
    .filter((s) => !s.approved)
    .map(({ grant, changes }) => ({ grant, changes }));
}

/** Record the user's approval of a runner as defined now (the file owner-only, written atomically). */
export function recordApproval(
  projectRoot: string,
  grant: RunnerGrant,
  opts: { env?: Env; notice?: Notice; now?: Date } = {},
): void {
  const dir = ensureConfigDir(opts.env ?? process.env);
  const project = realOr(projectRoot);
  const approvals = readUserRecords(dir, APPROVALS, opts.notice ?? stderrNotice);
  approvals[grantKey(grant, project)] = {
    project,
    runner: grant.id,
    approvedAt: (opts.now ?? new Date()).toISOString(),
    grant,
  };
  writeUserRecords(dir, APPROVALS, approvals);
}

/**
 * Approve a runner by id (configured in kitbash.toml, or a preset) as it is defined now:
 * what `skillsmith eval --approve-runner` records. With `shownKey` (the app), only if the
 * definition is still the one the user was shown: kitbash.toml may change between showing
 * and clicking. Returns what was approved.
 */
export function approveRunner(
  projectRoot: string,
  id: string,
  opts: { env?: Env; notice?: Notice; now?: Date; shownKey?: string; surface?: Surface } = {},
): RunnerGrant {
  const config = readProjectConfig(projectRoot);
  if (!config.ok) throw new CodedError('invalid-input', formatError(config.error));
  const configured = readRunners(config.value.raw);
  if (!configured.ok) throw new CodedError('invalid-input', configured.error.message);
  const runner = findRunner(configured.value, id);
  if (!runner)
    throw new CodedError(
      'invalid-request',
      `${opts.surface === 'app' ? 'Runner' : '--approve-runner'} ${id}: no such runner (configured: ${configured.value.map((r) => r.id).join(', ') || 'none'}; presets: ${PRESETS.map((p) => p.id).join(', ')})`,
    );
  const grant = grantFor(projectRoot, runner, opts.env);
  if (opts.shownKey !== undefined && grantKey(grant, realOr(projectRoot)) !== opts.shownKey)
    throw new CodedError(
      'forbidden',
      `kitbash.toml: runner ${id} changed since it was shown for approval — nothing was approved; review it again`,
    );
  recordApproval(projectRoot, grant, opts);
  return grant;
}

/** Eval refused before anything ran: runners the user has not approved here. */
export class RunnerNotApproved extends CodedError {
  constructor(
    readonly pending: readonly PendingApproval[],
    surface: Surface = 'cli',
  ) {
    super('forbidden', pending.map((p) => notApprovedMessage(p, surface)).join('\n'));
  }
}

/** Throws RunnerNotApproved unless every runner is approved for this project as defined now. */
export function requireApproved(projectRoot: string, runners: readonly RunnerConfig[], surface?: Surface): void {
  const pending = pendingApprovals(projectRoot, runners);
  if (pending.length) throw new RunnerNotApproved(pending, surface);
}
