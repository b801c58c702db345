import { z } from 'zod';
import { channel } from '../define';
import { SkillName } from '../schemas';

/**
 * The Evals view: a skill's audit, behavioral and trigger evals against agent runners,
 * run by main exactly as `skillsmith eval` runs them (sandboxed trials, results under
 * `.kitbash/evals/<run>/`). The renderer names skills, evals and runners; main resolves
 * every path itself.
 */

const EvalName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._-]+$/, 'an eval is the file name without .eval.yaml');
const RunnerId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'a runner id is lower-case letters, digits, - and _');
const RunId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[0-9TZ-]+-[0-9a-f]{6}$/, 'not an eval run id');
const Tri = z.enum(['yes', 'no', 'unknown']);

export const AssertionView = z.object({
  kind: z.string(),
  status: z.enum(['pass', 'fail', 'unknown']),
  detail: z.string(),
});

export const TrialView = z.object({
  index: z.number().int(),
  baseline: z.boolean(),
  task: z.string(),
  shouldTrigger: z.boolean().optional(),
  outcome: z.string(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number(),
  passed: z.boolean(),
  skillLoaded: Tri,
  tools: z.array(z.string()),
  assertions: z.array(AssertionView),
  changed: z.array(z.string()),
  message: z.string().optional(),
  usage: z
    .object({
      inputTokens: z.number(),
      outputTokens: z.number(),
      cachedTokens: z.number().optional(),
      costUsd: z.number().optional(),
    })
    .optional(),
});
export type TrialView = z.infer<typeof TrialView>;

const Interval = z.object({ low: z.number(), high: z.number() });

export const EvalResultView = z.object({
  skill: z.string(),
  version: z.string(),
  eval: z.string(),
  tier: z.string(),
  runner: z.string(),
  trials: z.number().int(),
  threshold: z.number(),
  passed: z.boolean(),
  passRate: z.number(),
  baselinePassRate: z.number().nullable(),
  delta: z.object({ value: z.number(), interval: Interval.nullable() }).nullable(),
  triggeredRate: z.number().nullable(),
  trigger: z
    .object({
      precision: z.number().nullable(),
      recall: z.number().nullable(),
      truePositives: z.number(),
      falsePositives: z.number(),
      falseNegatives: z.number(),
      trueNegatives: z.number(),
      unknown: z.number(),
    })
    .optional(),
  assertions: z.array(AssertionView),
  trialResults: z.array(TrialView),
  error: z.string().optional(),
});
export type EvalResultView = z.infer<typeof EvalResultView>;

export const EvalsOverview = z.object({
  skills: z.array(
    z.object({
      name: z.string(),
      version: z.string(),
      evals: z.array(
        z.object({
          name: z.string(),
          tier: z.string(),
          threshold: z.number(),
          repeat: z.number().int(),
          description: z.string().nullable(),
          runner: z.string().nullable(),
          file: z.string(),
        }),
      ),
      refused: z.string().nullable(),
    }),
  ),
  runners: z.array(
    z.object({
      id: z.string(),
      target: z.string(),
      transcript: z.string(),
      preset: z.boolean(),
      configured: z.boolean(),
      available: z.boolean(),
      command: z.array(z.string()),
    }),
  ),
  problems: z.array(z.string()),
  /** The eval run in flight in this project (started here or from the editor), if any. */
  active: z.string().nullable(),
  /** The newest stored result of each skill × eval × runner, with the run it came from. */
  latest: z.array(z.object({ runId: z.string(), result: EvalResultView })),
});
export type EvalsOverview = z.infer<typeof EvalsOverview>;

export const EvalProgress = z.object({
  runId: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  done: z.number().int(),
  total: z.number().int(),
  results: z.array(EvalResultView),
  problems: z.array(z.string()),
  cancelled: z.boolean(),
  message: z.string().nullable(),
});
export type EvalProgress = z.infer<typeof EvalProgress>;

/** What a run covers: the same request lists its runners for approval and starts it. */
const RunRequest = z
  .object({
    skills: z.array(SkillName).max(64),
    evals: z.array(EvalName).max(256).optional(),
    runner: RunnerId.optional(),
    repeat: z.number().int().min(1).max(100).optional(),
    baseline: z.boolean(),
  })
  .strict();
export type EvalRunRequest = z.infer<typeof RunRequest>;

/** sha256 hex of a runner's grant in this project (shared/evals/consent.ts grantKey). */
const GrantKey = z.string().regex(/^[0-9a-f]{64}$/, 'not a runner grant key');

export const RunnerApproval = z.object({
  id: z.string(),
  /** What approving binds to: evals.approveRunner refuses once the definition differs. */
  key: z.string(),
  approved: z.boolean(),
  /** What the runner may do, one line each, as `skillsmith eval` prints it (grantSummary). */
  summary: z.array(z.string()),
  /** What changed since the last approval of this runner here; empty on first use. */
  changes: z.array(z.string()),
});
export type RunnerApproval = z.infer<typeof RunnerApproval>;

export const evalsChannels = {
  overview: channel(
    'skills with audit/behavioral/trigger evals, the runners (configured and presets, whether each can start here) and the newest stored result per cell',
    z.object({}).strict(),
    EvalsOverview,
  ),
  start: channel(
    'run evals like `skillsmith eval` (sandboxed trials; refused for a skill with a blocking safety failure); poll evals.status',
    RunRequest,
    z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), runId: z.string() }),
      z.object({ ok: z.literal(false), message: z.string() }),
    ]),
  ),
  runners: channel(
    'the runners an eval run would use, each with whether it is approved as defined now, what it may do and what changed since its approval',
    RunRequest,
    z.object({ runners: z.array(RunnerApproval) }),
  ),
  approveRunner: channel(
    "record the user's approval of a runner as listed by evals.runners (refused if its definition changed since)",
    z.object({ runner: RunnerId, key: GrantKey }).strict(),
    z.object({ runner: z.string(), summary: z.array(z.string()) }),
  ),
  status: channel(
    'progress and results so far of an eval run this process started',
    z.object({ runId: RunId }).strict(),
    EvalProgress,
  ),
  cancel: channel(
    'cancel an eval run this window started (the trial in flight is killed)',
    z.object({ runId: RunId }).strict(),
    z.object({ cancelled: z.boolean() }),
  ),
  trial: channel(
    'one stored trial: its transcript (messages and tool calls), workspace diff, stderr and assertion results',
    z
      .object({
        runId: RunId,
        skill: SkillName,
        eval: EvalName,
        runner: RunnerId,
        baseline: z.boolean(),
        index: z.number().int().min(0).max(10_000),
      })
      .strict(),
    z.object({
      trial: TrialView,
      entries: z.array(
        z.object({
          kind: z.enum(['message', 'tool', 'result', 'error']),
          text: z.string(),
          tool: z.string().optional(),
        }),
      ),
      transcriptProblem: z.string().nullable(),
      /** The agent's final reply as the transcript gives it. */
      output: z.string(),
      diff: z.string(),
      stderr: z.string(),
    }),
  ),
  history: channel(
    "pass rate of a skill's evals per stored run and skill version, oldest first",
    z.object({ skill: SkillName }).strict(),
    z.object({
      points: z.array(
        z.object({
          runId: z.string(),
          startedAt: z.string(),
          version: z.string(),
          eval: z.string(),
          runner: z.string(),
          passRate: z.number(),
          baselinePassRate: z.number().nullable(),
        }),
      ),
    }),
  ),
} as const;
