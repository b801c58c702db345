import { z } from 'zod';
import { channel, Empty } from '../define';

/**
 * Compile planning for the desktop. The renderer plans live from a snapshot of what the
 * planner reads (installed skills' files, kitbash.toml, the generated outputs and markers);
 * the plan it shows before writing, and the write itself, come from main.
 */

/** A file as text (valid UTF-8) or as base64 bytes. */
export const SnapshotFile = z.object({
  path: z.string(),
  text: z.string().optional(),
  base64: z.string().optional(),
});
export type SnapshotFile = z.infer<typeof SnapshotFile>;

export const SnapshotEntry = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), path: z.string(), text: z.string().optional(), base64: z.string().optional() }),
  z.object({ kind: z.literal('dir'), path: z.string() }),
  z.object({ kind: z.literal('symlink'), path: z.string(), target: z.string() }),
]);
export type SnapshotEntry = z.infer<typeof SnapshotEntry>;

export const SnapshotSkill = z.object({
  /** Folder name under `.kitbash/skills/`. */
  dir: z.string(),
  /** Display root, e.g. `.kitbash/skills/prereview` (used in load errors, as the CLI does). */
  display: z.string(),
  /** Why the folder is not a loadable skill folder (symlink, no SKILL.md, unreadable…); then `entries` is empty. */
  broken: z.string().nullable(),
  /** The skill tree in walk order. */
  entries: z.array(SnapshotEntry),
});
export type SnapshotSkill = z.infer<typeof SnapshotSkill>;

export const CompileSnapshot = z.object({
  rootName: z.string(),
  /** `kitbash.toml` text; null when there is none. */
  config: z.string().nullable(),
  /** kitbash.toml could not be read (too big, not UTF-8). */
  configError: z.string().nullable(),
  skills: z.array(SnapshotSkill),
  /** Project files the planner reads (generated outputs, shared files, agent config). */
  files: z.array(SnapshotFile),
  /** Folders that exist (agent markers, managed output folders and their children). */
  dirs: z.array(z.string()),
  /** Files or folders left out because the snapshot is over its size bound. */
  omitted: z.array(z.string()),
  takenAt: z.string(),
});
export type CompileSnapshot = z.infer<typeof CompileSnapshot>;

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
  }),
  /** The plan changed since it was shown (files edited in between): nothing was written; here is the new one. */
  z.object({ status: z.literal('stale'), plan: DiskPlan }),
  /** The plan has errors: nothing was written. */
  z.object({ status: z.literal('refused'), errors: z.array(z.string()) }),
]);
export type ApplyResult = z.infer<typeof ApplyResult>;

export const compileChannels = {
  snapshot: channel(
    "what the compile planner reads from the open project (skills' files, kitbash.toml, generated outputs), bounded, for live previews",
    Empty,
    CompileSnapshot,
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
