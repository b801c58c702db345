import { z } from 'zod';
import { TARGET_IDS } from '../../targets/types';
import { channel, Empty } from '../define';
import { SkillName } from '../schemas';

/**
 * Compile planning for the desktop: the live preview of one skill with its unsaved buffers
 * (planned by main against the project on disk), the plan shown before writing, and the
 * write itself.
 */

/** Skill-relative paths of a skill's unsaved buffers: '/'-separated, never absolute, never `..`. */
const BufferPath = z
  .string()
  .min(1)
  .max(200)
  .refine((p) => !p.includes('\0') && !p.includes('\\'), 'a buffer path uses "/" and no NUL')
  .refine((p) => !p.startsWith('/') && !p.split('/').some((x) => x === '' || x === '.' || x === '..'), {
    message: 'a buffer path is relative to the skill folder, without "." or ".." segments',
  });

export const PreviewRequest = z
  .object({
    /** The skill's folder under `.kitbash/skills/` (it need not exist yet). */
    dir: SkillName,
    /** Unsaved buffers, skill-relative path → text, laid over the folder as it is on disk. */
    files: z
      .record(BufferPath, z.string().max(8 * 1024 * 1024))
      .refine((f) => Object.keys(f).length <= 256, 'at most 256 buffers')
      .refine((f) => Object.values(f).reduce((n, t) => n + t.length, 0) <= 16 * 1024 * 1024, 'at most 16 MiB in all'),
    /** Also preview every target the project does not compile for, as if it were added. */
    inactive: z.boolean(),
  })
  .strict();
export type PreviewRequest = z.infer<typeof PreviewRequest>;

/**
 * One file compile would write for the skill. Texts past the preview's bound (a merged
 * AGENTS.md of 1,000 skills is megabytes) are not sent whole: `text` / `disk` are null and
 * the sizes say so; a merged file still carries this skill's section, as written and as on disk.
 */
export const PreviewFile = z.object({
  path: z.string(),
  /** Differs from the file on disk now (compile would write it). */
  changed: z.boolean(),
  merge: z.enum(['section', 'settings']).nullable(),
  /** Emitted for this target but written once under this shared folder (`.agents/skills/…`). */
  servedBy: z.string().nullable(),
  /** UTF-8 bytes of what compile writes. */
  size: z.number().int(),
  /** Copied as bytes that are not UTF-8 text. */
  binary: z.boolean(),
  /** What compile writes, as text; null when binary or over the bound. */
  text: z.string().nullable(),
  onDisk: z.boolean(),
  /** The file on disk now, as text; null when absent, not text, or over the bound. */
  disk: z.string().nullable(),
  /** This skill's marked section of a merged file, as compile writes it. */
  section: z.string().nullable(),
  /** That section in the file on disk now (null: the file has none). */
  diskSection: z.string().nullable(),
});
export type PreviewFile = z.infer<typeof PreviewFile>;

export const TargetPreview = z.object({
  target: z.enum(TARGET_IDS),
  agent: z.string(),
  loading: z.enum(['lazy', 'eager']),
  status: z.enum(['full', 'degraded', 'unsupported']),
  reasons: z.array(z.object({ code: z.string(), message: z.string() })),
  /** Tokens resident every session (lazy: the description; eager: the emitted text). */
  standingTokens: z.number(),
  /** Tokens of the emitted text: what the agent holds once the skill is used. */
  loadedTokens: z.number(),
  files: z.array(PreviewFile),
  warnings: z.array(z.string()),
  notes: z.array(z.string()),
  /** Not a target of this project: what compile would write if it were added. */
  inactive: z.boolean(),
});
export type TargetPreview = z.infer<typeof TargetPreview>;

/** What the compiled-previews panel shows for one skill with its unsaved buffers. */
export const LivePreview = z.object({
  /** Why the skill does not load (then there are no previews). */
  loadError: z.string().nullable(),
  /** Why it loads but does not compile (a template error). */
  prepareError: z.string().nullable(),
  name: z.string().nullable(),
  bodyTokens: z.number().nullable(),
  stubTokens: z.number().nullable(),
  budget: z.number().nullable(),
  standingLimit: z.number().nullable(),
  disclosure: z.enum(['lazy', 'eager']).nullable(),
  /** The project's targets and refusals with the edit in it. */
  plan: z.object({ targets: z.array(z.enum(TARGET_IDS)), errors: z.array(z.string()) }),
  /** Refusals this skill causes. */
  refusals: z.array(z.string()),
  /** Refusals the project has whatever this skill says (the dashboard's to show). */
  projectRefusals: z.array(z.string()),
  /** Why compile would skip this skill although it loads (over its budget or standing limit). */
  failure: z.string().nullable(),
  targets: z.array(TargetPreview),
  /** Planning time on main, in ms. */
  ms: z.number(),
});
export type LivePreview = z.infer<typeof LivePreview>;

export const PlanFileRow = z.object({
  path: z.string(),
  changed: z.boolean(),
  /** Absent on disk now (compile creates it). */
  created: z.boolean(),
  skill: z.string().nullable(),
  merge: z.enum(['section', 'settings']).nullable(),
  bytes: z.number().int(),
});
export type PlanFileRow = z.infer<typeof PlanFileRow>;

/** A skill compile does not deliver (shared/compile/deliver.ts), with why and the way forward. */
export const Withheld = z.object({
  name: z.string(),
  reason: z.enum(['drift', 'blocked', 'unverified']),
  message: z.string(),
  forward: z.string(),
});

export const DiskPlan = z.object({
  errors: z.array(z.string()),
  targets: z.array(z.string()),
  write: z.array(PlanFileRow),
  merge: z.array(PlanFileRow),
  prune: z.array(z.object({ path: z.string(), action: z.enum(['delete', 'rewrite']), reason: z.string() })),
  warnings: z.array(z.string()),
  notes: z.array(z.string()),
  compiled: z.number().int(),
  /** Skill folders that do not load (their outputs are kept). */
  failures: z.array(z.object({ name: z.string(), message: z.string() })),
  /** Skills that load but are not delivered: not the reviewed bytes, or a blocking finding (outputs pruned). */
  withheld: z.array(Withheld),
  /** Identifies this plan: apply refuses when the project's plan is no longer this one. */
  digest: z.string(),
});
export type DiskPlan = z.infer<typeof DiskPlan>;

export const ApplyResult = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('applied'),
    written: z.array(z.string()),
    rewritten: z.array(z.string()),
    removed: z.array(z.string()),
    skipped: z.array(z.object({ path: z.string(), why: z.string() })),
    summary: z.string(),
    /** The skills this compile did not deliver (as in the plan shown). */
    withheld: z.array(Withheld),
  }),
  /** The plan changed since it was shown (files edited in between): nothing was written; here is the new one. */
  z.object({ status: z.literal('stale'), plan: DiskPlan }),
  /** The plan has errors: nothing was written. */
  z.object({ status: z.literal('refused'), errors: z.array(z.string()) }),
]);
export type ApplyResult = z.infer<typeof ApplyResult>;

export const compileChannels = {
  preview: channel(
    "one skill's compiled output per target with its unsaved buffers, planned as compile would (nothing is written)",
    PreviewRequest,
    LivePreview,
  ),
  plan: channel(
    'the compile plan for the project as saved on disk: files to write, merge and prune (nothing is written)',
    Empty,
    DiskPlan,
  ),
  apply: channel(
    'compile the open project, if its plan is still the one shown (digest); writes through the compile service',
    z.object({ digest: z.string().min(1).max(128) }).strict(),
    ApplyResult,
  ),
} as const;
