import { z } from 'zod';
import { channel, Empty } from '../define';
import { AbsolutePath, CheckStatus, ProjectRelativePath } from '../schemas';
import { TARGET_IDS } from '../../targets/types';

/** The open project and its dashboard. */

export const ProjectRef = z.object({ root: z.string(), name: z.string() });
export type ProjectRef = z.infer<typeof ProjectRef>;

export const TargetInfo = z.object({
  id: z.string(),
  label: z.string(),
  /** Its marker exists in the project (`.claude/`, `.cursor/`, …). */
  detected: z.boolean(),
  /** Listed in `[project].targets`. */
  configured: z.boolean(),
  /** Compiled for: configured targets when `[project].targets` is set, else the detected ones. */
  active: z.boolean(),
  /** How the agent loads skills: lazily (standing = the stub) or eagerly (the whole body). */
  loading: z.enum(['lazy', 'eager', 'unknown']),
  /**
   * Before set-up only (else null): what choosing this target would cost — Σ standing tokens per
   * session of the skills here — and whether set-up proposes it (its agent left a marker here).
   */
  setup: z.object({ tokens: z.number().int(), proposed: z.boolean() }).nullable(),
});
export type TargetInfo = z.infer<typeof TargetInfo>;

export const LockState = z.enum(['locked', 'drift', 'unlocked', 'missing', 'unknown']);

export const SkillRow = z.object({
  /** Folder name under `.kitbash/skills/` (the key for `skills.get`). */
  dir: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  description: z.string(),
  /** Where it came from, per the lock; null when not locked or not known. */
  source: z.string().nullable(),
  manifested: z.boolean(),
  loaded: z.boolean(),
  budget: z.number().nullable(),
  standingLimit: z.number().nullable(),
  bodyTokens: z.number().nullable(),
  stubTokens: z.number().nullable(),
  /** Tokens this skill adds to every session, per active target id; null when not computable. */
  standing: z.record(z.string(), z.number().nullable()),
  /**
   * The skill's verdict (shared/policy/verdict, the computation the review, `run` and the Runs
   * tab use): failing and warning checks, blocking findings, findings accepted by exception.
   */
  lint: z.object({
    status: CheckStatus,
    failures: z.number().int(),
    warnings: z.number().int(),
    blocking: z.number().int(),
    accepted: z.number().int(),
  }),
  lock: LockState,
  /** Who signed the pinned folder, as kitbash.lock records it (SPEC D214); null: no verified signature. */
  signedBy: z.string().nullable(),
  mode: z.enum(['skill', 'gate']).nullable(),
  disclosure: z.enum(['lazy', 'eager']).nullable(),
  permissions: z.object({ tools: z.array(z.string()), network: z.boolean(), write: z.boolean() }),
});
export type SkillRow = z.infer<typeof SkillRow>;

export const Problem = z.object({
  severity: z.enum(['error', 'warning']),
  /** The skill folder it belongs to; null for project-level problems. */
  skill: z.string().nullable(),
  source: z.string(),
  message: z.string(),
  file: z.string().optional(),
  line: z.number().int().optional(),
});
export type Problem = z.infer<typeof Problem>;

/** A status card: `unavailable` means the engine that decides it is not part of this build. */
export const StatusCard = z.object({
  state: z.enum(['ok', 'warn', 'error', 'none', 'unavailable']),
  title: z.string(),
  detail: z.string(),
});
export type StatusCard = z.infer<typeof StatusCard>;

export const Dashboard = z.object({
  project: ProjectRef,
  scannedAt: z.string(),
  scanMs: z.number(),
  /** `kitbash.toml` could not be read; the rest is shown with default configuration. */
  configError: z.string().nullable(),
  /** The folder has a `kitbash.toml` (false: not set up yet — the dashboard offers to create one). */
  hasConfig: z.boolean(),
  targets: z.array(TargetInfo),
  skills: z.array(SkillRow),
  totals: z.object({ skills: z.number().int(), failures: z.number().int(), warnings: z.number().int() }),
  /** Standing context cost per session, per active target. */
  standingByTarget: z.array(
    z.object({
      target: z.string(),
      label: z.string(),
      tokens: z.number().nullable(),
      loading: z.enum(['lazy', 'eager', 'unknown']),
    }),
  ),
  lock: StatusCard,
  policy: StatusCard,
  compiled: StatusCard,
  problems: z.array(Problem),
});
export type Dashboard = z.infer<typeof Dashboard>;

/**
 * Whether changes on disk reach the window: 'live' when every folder the dashboard reads is
 * watched, 'partial' when some could not be (an inotify limit, permissions), 'off' when none is.
 */
export const WatchStatus = z.object({
  state: z.enum(['live', 'partial', 'off']),
  watched: z.number().int(),
  unwatched: z.number().int(),
  /** The first folder not watched and why, in one line; null when none failed. */
  reason: z.string().nullable(),
});
export type WatchStatus = z.infer<typeof WatchStatus>;

export const projectChannels = {
  open: channel(
    "open a project folder (the user chose it); it becomes this window's project",
    z.object({ path: AbsolutePath }).strict(),
    ProjectRef,
  ),
  current: channel('the project this window has open, if any', Empty, z.object({ project: ProjectRef.nullable() })),
  close: channel('close the project (back to the picker)', Empty, z.object({ closed: z.boolean() })),
  dashboard: channel(
    'scan the open project: targets, skills, costs, lock/policy/compile status, problems',
    Empty,
    Dashboard,
  ),
  cachedDashboard: channel(
    "the open project's last scan kept from an earlier run, for the first paint while a fresh scan runs (may be out of date)",
    Empty,
    z.object({ dashboard: Dashboard.nullable() }),
  ),
  watchStatus: channel(
    "whether changes on disk reach this window: the open project's folders watched and not, and why (answers once the first watch walk is done)",
    Empty,
    WatchStatus,
  ),
  watchGap: channel(
    'why a change made on disk in one folder of the open project, or in one under it, might not reach this window (null: all of them are watched)',
    z.object({ path: ProjectRelativePath }).strict(),
    z.object({ gap: z.string().nullable() }),
  ),
  init: channel(
    'set the open folder up as a project: write kitbash.toml from the template with the chosen targets and create .kitbash/skills/ (never overwrites)',
    z.object({ targets: z.array(z.enum(TARGET_IDS)).min(1) }).strict(),
    z.object({ created: z.boolean() }),
  ),
} as const;
