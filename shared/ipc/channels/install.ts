import { z } from 'zod';
import { INTEGRITY_RE } from '../../lock/integrity';
import { channel } from '../define';
import { Location, SkillName } from '../schemas';

/**
 * The install approval dialog: review a source, approve exactly that review (by its
 * integrity hash), cancel; review an update of a pinned skill; plan and apply a remove.
 * Main keeps every staged review; the renderer only ever names a review by its id and
 * the hash it was shown — and main refuses to approve a blocked review whatever it sends.
 */

/** A source as typed: a folder path, `file:…`, a git URL (`url#ref:path`), `gh:owner/repo/path@ref`. */
export const SourceText = z
  .string()
  .min(1, 'enter a source')
  .max(2048)
  .refine((s) => !/[\0\r\n]/.test(s), 'a source is one line, without NUL')
  .refine((s) => s.trim() === s, 'a source has no leading or trailing spaces')
  .refine((s) => !s.startsWith('-'), 'a source may not start with "-"');

/** A review session id (main makes them: 16 hex digits). */
export const ReviewId = z.string().regex(/^[0-9a-f]{16}$/, 'not a review id');
export const Integrity = z.string().regex(INTEGRITY_RE, 'not an integrity hash');
/** A renderer-chosen id that the `progress` events of this call carry. */
export const ProgressId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a progress id');

const Finding = z.object({
  id: z.string(),
  status: z.enum(['warn', 'fail']),
  detail: z.string(),
  /** Where in the skill's files (from the static checks of the staged copy). */
  locations: z.array(Location),
});

const Source = z.object({
  raw: z.string(),
  canonical: z.string(),
  kind: z.enum(['local', 'git', 'github', 'wellknown']),
  commit: z.string().optional(),
  digest: z.string().optional(),
  origin: z.string(),
});

const Permission = z.object({
  permission: z.string(),
  declared: z.boolean(),
  declaredIn: z.literal('SKILL.md allowed-tools').optional(),
  enforcement: z
    .object({ label: z.enum(['enforced', 'advisory', 'unavailable']), detail: z.string().optional() })
    .optional(),
});

/** shared/lock/powers.ts POWER_KINDS, spelled here so the preload bundle does not pull in the targets. */
const PowerKind = z.enum([
  'hooks',
  'allowed-tools',
  'disallowed-tools',
  'context',
  'agent',
  'model',
  'disable-model-invocation',
  'user-invocable',
  'dynamic-context',
  'mcp-server',
  'executable',
]);
const Power = z.object({ kind: PowerKind, value: z.string() });

const Severity = z.enum(['critical', 'high', 'medium', 'low']);
/** shared/scanners/review.ts ReviewScannerFinding (SPEC D251). */
const ScannerFindingView = z.object({
  scanner: z.string(),
  rule: z.string(),
  check: z.string(),
  severity: Severity,
  message: z.string(),
  file: z.string().optional(),
  line: z.number().int().optional(),
  status: z.enum(['blocking', 'advisory', 'accepted']),
});
const ScannerRunView = z.object({
  name: z.string(),
  id: z.string(),
  state: z.enum(['ran', 'not-installed', 'failed', 'unconfirmed']),
  problem: z.string().optional(),
  findings: z.number().int(),
});

export const ReviewNodeView = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  role: z.enum(['requested', 'dependency']),
  alreadyInstalled: z.boolean(),
  manifested: z.boolean(),
  source: Source,
  manifest: z.object({
    mode: z.string(),
    disclosure: z.string(),
    commands: z.array(z.string()),
    events: z.array(z.string()),
    produces: z.array(z.string()),
    consumes: z.array(z.string()),
    mcpServers: z.array(
      z.object({ name: z.string(), transport: z.string(), subject: z.string(), tools: z.array(z.string()) }),
    ),
    scripts: z.array(z.string()),
    license: z.string().optional(),
    homepage: z.string().optional(),
  }),
  permissions: z.array(Permission),
  budget: z.object({ budget: z.number(), standing: z.number(), bodyTokens: z.number(), stubTokens: z.number() }),
  requires: z.array(z.string()),
  lint: z.array(Finding),
  safety: z.array(Finding),
  /** Blocking findings a `[[policy.exceptions]]` entry accepts for exactly this version. */
  accepted: z.array(
    z.object({
      id: z.string(),
      detail: z.string(),
      file: z.string(),
      line: z.number().int(),
      by: z.string(),
      reason: z.string(),
    }),
  ),
  /** The counts every screen shows for this skill (shared/policy/verdict). */
  verdict: z.object({
    status: z.enum(['pass', 'warn', 'fail']),
    failures: z.number().int(),
    warnings: z.number().int(),
  }),
  policy: z.array(z.string()),
  /** The staged folder's signature check (SPEC D210). */
  signature: z
    .discriminatedUnion('state', [
      z.object({ state: z.literal('verified'), by: z.string(), digest: z.string() }),
      z.object({ state: z.literal('untrusted'), by: z.string(), digest: z.string(), reason: z.string() }),
      z.object({ state: z.literal('unsigned') }),
      z.object({ state: z.literal('invalid'), digest: z.string(), reason: z.string() }),
      z.object({ state: z.literal('unknown-format'), digest: z.string(), reason: z.string() }),
    ])
    .optional(),
  dependencies: z.array(z.object({ name: z.string(), range: z.string(), version: z.string() })),
  consumes: z.array(z.object({ artifact: z.string(), producedBy: z.string().nullable() })),
  integrity: z.string(),
  files: z.array(z.string()),
  /** What the compiled skill can make each active agent do (shared/lock/powers.ts). */
  powers: z.object({
    carried: z.array(Power),
    agents: z.array(
      z.object({
        target: z.string(),
        agent: z.string(),
        powers: z.array(Power.extend({ status: z.enum(['acts', 'inert', 'dropped']) })),
      }),
    ),
    note: z.string().optional(),
  }),
  /** Findings of the project's external scanners over the staged folder. */
  scanners: z.array(ScannerFindingView).optional(),
});
export type ReviewNodeView = z.infer<typeof ReviewNodeView>;

/** The workspace service's InstallReview, field for field, plus what the dialog adds. */
export const ReviewView = z.object({
  id: ReviewId,
  kind: z.enum(['install', 'update']),
  root: z.string(),
  source: Source,
  nodes: z.array(ReviewNodeView),
  writes: z.array(z.string()),
  blockers: z.array(z.string()),
  notices: z.array(z.string()),
  changes: z
    .array(
      z.object({ field: z.string(), before: z.string(), after: z.string(), escalation: z.boolean(), line: z.string() }),
    )
    .optional(),
  fileChanges: z.array(z.object({ path: z.string(), change: z.enum(['+', '-', '~']) })).optional(),
  /** Unified diffs of changed text files (update only), capped. */
  diffs: z.array(z.object({ path: z.string(), diff: z.string() })).optional(),
  compile: z
    .object({ writes: z.array(z.string()), prunes: z.array(z.string()), errors: z.array(z.string()) })
    .optional(),
  /** Active compile targets (empty: none is active), for where each permission holds. */
  agents: z.array(
    z.object({
      target: z.string(),
      agent: z.string(),
      tools: z.enum(['comma', 'space', 'prose']),
      guard: z.boolean().optional(),
    }),
  ),
  /** Each `[scanners.<name>]` of kitbash.toml and whether it ran; absent when none is configured. */
  scanners: z.array(ScannerRunView).optional(),
  /** Standing tokens per session per compile target, before and after the install. */
  standing: z.array(z.object({ target: z.string(), loading: z.string(), before: z.number(), after: z.number() })),
  integrity: Integrity,
});
export type ReviewView = z.infer<typeof ReviewView>;

const Committed = z.object({
  outcome: z.literal('installed'),
  installed: z.array(z.string()),
  notes: z.array(z.string()),
});
/** The source no longer matches what was reviewed: here is the new review (the old one is gone). */
const Changed = z.object({ outcome: z.literal('changed'), message: z.string(), review: ReviewView });
export const ApproveResult = z.discriminatedUnion('outcome', [Committed, Changed]);
export type ApproveResult = z.infer<typeof ApproveResult>;

export const UpdateCheck = z.discriminatedUnion('status', [
  z.object({ status: z.literal('up-to-date'), name: z.string(), version: z.string(), note: z.string().optional() }),
  z.object({
    status: z.literal('changed'),
    name: z.string(),
    from: z.string(),
    localEdits: z.boolean(),
    /** What the three-way merge over local edits did to each file (SPEC D300); absent without local edits. */
    merge: z
      .object({
        based: z.boolean(),
        files: z.array(
          z.object({
            path: z.string(),
            outcome: z.enum(['upstream', 'deleted', 'local', 'merged', 'conflict', 'ours', 'theirs', 'unresolved']),
          }),
        ),
      })
      .optional(),
    review: ReviewView,
  }),
]);
export type UpdateCheck = z.infer<typeof UpdateCheck>;

export const ApplyUpdateResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('updated'), updated: z.string(), version: z.string(), notes: z.array(z.string()) }),
  /** The pinned source moved again since the review: nothing applied; here is what it is now. */
  z.object({ outcome: z.literal('changed'), message: z.string(), check: UpdateCheck }),
]);
export type ApplyUpdateResult = z.infer<typeof ApplyUpdateResult>;

export const RemovePlanView = z.object({
  name: z.string(),
  version: z.string().nullable(),
  /** Installed skills that depend on it: remove is refused while any remain. */
  dependents: z.array(z.string()),
  /** Dependencies installed only for it that nothing else needs. */
  orphans: z.array(z.string()),
  /** Project files deleted (the skill folders) and the lock rewritten. */
  deletes: z.array(z.string()),
  /** What the recompile afterwards would do to generated output. */
  compile: z.object({ writes: z.array(z.string()), prunes: z.array(z.string()), errors: z.array(z.string()) }),
});
export type RemovePlanView = z.infer<typeof RemovePlanView>;

export const installChannels = {
  begin: channel(
    'fetch and stage a source (nothing in the project is written) and return its review',
    z.object({ source: SourceText, progressId: ProgressId.optional() }).strict(),
    ReviewView,
  ),
  approve: channel(
    'install exactly the reviewed closure, named by its integrity hash; refused when the review is blocked; re-reviews when the source changed',
    z.object({ id: ReviewId, integrity: Integrity, progressId: ProgressId.optional() }).strict(),
    ApproveResult,
  ),
  cancel: channel(
    'discard a staged review without installing anything',
    z.object({ id: ReviewId }).strict(),
    z.object({ cancelled: z.boolean() }),
  ),
  checkUpdate: channel(
    'refetch a pinned skill and return the update review (diff with escalations), or up-to-date',
    z.object({ name: SkillName, progressId: ProgressId.optional() }).strict(),
    UpdateCheck,
  ),
  applyUpdate: channel(
    'apply a reviewed update, named by its integrity hash; refused when blocked',
    z.object({ id: ReviewId, integrity: Integrity }).strict(),
    ApplyUpdateResult,
  ),
  planRemove: channel(
    'what removing an installed skill does: dependents, orphans, deleted files, compile prunes',
    z.object({ name: SkillName }).strict(),
    RemovePlanView,
  ),
  remove: channel(
    'remove an installed skill (refused while others depend on it), optionally with its orphaned dependencies',
    z.object({ name: SkillName, orphans: z.array(SkillName).max(256) }).strict(),
    z.object({ removed: z.array(z.string()), notes: z.array(z.string()) }),
  ),
} as const;
