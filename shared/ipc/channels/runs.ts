import { z } from 'zod';
import { channel } from '../define';
import { SkillName } from '../schemas';

/**
 * The runs panel: scripts and gates of installed skills, run by main's runner inside the
 * sandbox their manifest declares. The renderer names a skill and a script; main resolves
 * both inside the project (never a path from the renderer), plans, refuses where the
 * runner refuses, and streams the run as `run.output` / `run.status` events.
 */

const ScriptName = z
  .string()
  .min(1)
  .max(255)
  .refine(
    (s) => !s.includes('\0') && !s.startsWith('/') && !s.split('/').includes('..'),
    "a script is a file name inside the skill's scripts/ folder",
  );
const Args = z
  .array(
    z
      .string()
      .max(4096)
      .refine((a) => !a.includes('\0'), 'an argument may not contain NUL'),
  )
  .max(64);
export const RunMode = z.enum(['run', 'gate']);

export const RestrictionRowView = z.object({
  id: z.string(),
  what: z.string(),
  label: z.string(),
  required: z.boolean(),
});
export type RestrictionRowView = z.infer<typeof RestrictionRowView>;

export const BackendView = z.object({
  backend: z.string(),
  works: z.boolean(),
  path: z.string().optional(),
  version: z.string().optional(),
  reason: z.string().optional(),
});

export const RunTarget = z.object({
  dir: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  /** `targets.mode` ("skill", "gate", ...); null when the skill does not load. */
  mode: z.string().nullable(),
  scripts: z.array(z.string()),
  permissions: z.object({ network: z.boolean(), write: z.boolean(), tools: z.array(z.string()) }).nullable(),
  produces: z.array(z.string()),
  /** Labels for this skill's declared permissions on this machine. */
  rows: z.array(RestrictionRowView),
  /** Why the skill cannot run at all (does not load), one line. */
  problem: z.string().nullable(),
  /**
   * Its current verdict — the same computation as the dashboard and the review: counts, each
   * blocking finding as one line (a run is refused while any remains), accepted exceptions.
   */
  verdict: z
    .object({
      status: z.enum(['pass', 'warn', 'fail']),
      failures: z.number().int(),
      warnings: z.number().int(),
      blocking: z.array(z.string()),
      accepted: z.number().int(),
    })
    .nullable(),
});
export type RunTarget = z.infer<typeof RunTarget>;

export const RunPlanView = z.object({
  skill: z.string(),
  version: z.string(),
  integrity: z.string(),
  mode: RunMode,
  script: z.string().optional(),
  argv: z.array(z.string()),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  backend: BackendView,
  rows: z.array(RestrictionRowView),
  tools: z.array(z.string()),
  override: z.boolean(),
  produces: z.array(z.string()),
});
export type RunPlanView = z.infer<typeof RunPlanView>;

export const Refusal = z.object({
  reason: z.string(),
  message: z.string(),
  rows: z.array(RestrictionRowView).optional(),
});
export type Refusal = z.infer<typeof Refusal>;

const RunAsk = {
  skill: SkillName,
  mode: RunMode,
  script: ScriptName.optional(),
  args: Args,
};

export const PlanAnswer = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    plan: RunPlanView,
    /** Present only for an override plan: the one-time token runs.start needs to run exactly this unconfined. */
    overrideToken: z.string().optional(),
  }),
  z.object({ ok: z.literal(false), refusal: Refusal }),
]);
export type PlanAnswer = z.infer<typeof PlanAnswer>;

export const StartAnswer = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), runId: z.string(), plan: RunPlanView }),
  z.object({ ok: z.literal(false), refusal: Refusal }),
]);
export type StartAnswer = z.infer<typeof StartAnswer>;

export const AuditEntry = z.object({
  time: z.string(),
  runId: z.string(),
  skill: z.string(),
  version: z.string().nullable(),
  mode: z.string(),
  script: z.string().nullable(),
  argv: z.array(z.string()),
  backend: z.string(),
  enforcement: z.record(z.string(), z.string()),
  override: z.boolean(),
  outcome: z.string(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number(),
  verdict: z.string().optional(),
  refused: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const runsChannels = {
  targets: channel(
    'installed skills with their scripts, gate mode and the sandbox label of each declared permission here',
    z.object({}).strict(),
    z.object({ backend: BackendView, skills: z.array(RunTarget) }),
  ),
  plan: channel(
    'what a run would do and under which restrictions, or why the runner refuses it — nothing runs; with unconfined, the one-time override plan',
    z.object({ ...RunAsk, unconfined: z.boolean().optional() }).strict(),
    PlanAnswer,
  ),
  start: channel(
    'start a sandboxed run (output arrives as run.output / run.status); unconfined only with the token of an override plan, once',
    z.object({ ...RunAsk, overrideToken: z.string().min(8).max(128).optional() }).strict(),
    StartAnswer,
  ),
  cancel: channel(
    'cancel a run this window started',
    z.object({ runId: z.string().min(1).max(128) }).strict(),
    z.object({ cancelled: z.boolean() }),
  ),
  history: channel(
    'runs and refusals from the audit log (.kitbash/runs.jsonl), newest first',
    z.object({ skill: SkillName.optional(), limit: z.number().int().min(1).max(1000).optional() }).strict(),
    z.object({ records: z.array(AuditEntry), total: z.number().int() }),
  ),
} as const;
