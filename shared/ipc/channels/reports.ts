import { z } from 'zod';
import { TARGET_IDS } from '../../targets/types';
import { HELD_PERMISSIONS } from '../../targets/enforcement';
import { channel, Empty } from '../define';
import { SkillName } from '../schemas';

/**
 * The Costs and Matrix views' figures, computed in main (on the dashboard's worker thread)
 * from the project on disk with the same functions as `skillsmith list`, `matrix` and
 * `explain`: at 1,000 skills the page receives the answers, not every skill's files.
 */

const Target = z.enum(TARGET_IDS);
const Failure = z.object({ name: z.string(), message: z.string() });

/** The project's compile targets: `[project].targets`, else the detected ones. */
export const ActiveTargets = z.object({
  targets: z.array(Target),
  explicit: z.boolean(),
  /** Why the selection failed (then `targets` is empty). */
  error: z.string().optional(),
});

export const SkillCost = z.object({
  skill: z.string(),
  disclosure: z.enum(['lazy', 'eager']),
  /** Standing tokens per target id; null when the skill does not compile. */
  perTarget: z.record(z.string(), z.number().nullable()),
  loadedPerTarget: z.record(z.string(), z.number().nullable()),
  /**
   * Target id → why the skill is not written to that target's always-loaded file (D221): it
   * costs that file's readers nothing, so its `perTarget` there is 0.
   */
  notWritten: z.record(z.string(), z.string()).optional(),
  error: z.string().optional(),
});
export type SkillCost = z.infer<typeof SkillCost>;

export const ListingRow = z.object({
  target: Target,
  usedChars: z.number(),
  totalChars: z.number().optional(),
  perSkillChars: z.number().optional(),
  truncated: z.array(z.string()),
  dropped: z.array(z.string()),
  nameOnly: z.array(z.string()),
  source: z.string(),
});

export const CostsReport = z.object({
  /** Every loaded skill, by name. */
  skills: z.array(SkillCost),
  failures: z.array(Failure),
  listings: z.array(ListingRow),
  active: ActiveTargets,
});
export type CostsReport = z.infer<typeof CostsReport>;

const CellStatus = z.enum(['full', 'degraded', 'unsupported']);
export const MatrixCell = z.object({
  skill: z.string(),
  target: Target,
  status: CellStatus,
  reasons: z.array(z.object({ code: z.string(), message: z.string() })),
});
export type MatrixCell = z.infer<typeof MatrixCell>;

/** Where a declared permission holds when the agent runs a skill's scripts itself (SPEC D200). */
export const EnforcementCell = z.object({
  target: Target,
  permission: z.enum(HELD_PERMISSIONS),
  status: z.enum(['enforced', 'advisory']),
  why: z.string(),
});
export type EnforcementCell = z.infer<typeof EnforcementCell>;

export const MatrixReport = z.object({
  skills: z.array(z.string()),
  targets: z.array(Target),
  cells: z.array(MatrixCell),
  failures: z.array(Failure),
  /** Skill name → its folder under `.kitbash/skills/`. */
  dirs: z.record(z.string(), z.string()),
  active: ActiveTargets,
  enforcement: z.array(EnforcementCell),
});
export type MatrixReport = z.infer<typeof MatrixReport>;

export const Explanation = z.object({
  cell: MatrixCell,
  target: z.object({
    id: Target,
    agent: z.string(),
    loading: z.enum(['lazy', 'eager']),
    outputs: z.array(z.string()),
    capabilities: z.array(z.string()),
    vendorDoc: z.object({ title: z.string(), checked: z.string() }),
  }),
  requires: z.array(z.string()),
  disclosure: z.enum(['lazy', 'eager']),
  standingTokens: z.number().nullable(),
  loadedTokens: z.number().nullable(),
  notes: z.array(z.string()),
});
export type Explanation = z.infer<typeof Explanation>;

/** A report kept from an earlier run, for the first paint while the fresh one is computed (may be out of date). */
const kept = <T extends z.ZodTypeAny>(report: T) => z.object({ at: z.string(), report }).nullable();
export const KeptCosts = kept(CostsReport);
export const KeptMatrix = kept(MatrixReport);
/** `at`: when it was computed (ISO 8601). */
export type KeptReport<K extends 'costs' | 'matrix'> = {
  at: string;
  report: K extends 'costs' ? CostsReport : MatrixReport;
};

export const reportsChannels = {
  costs: channel(
    'standing and loaded tokens of every installed skill on every target, and each agent’s skills listing (nothing written)',
    Empty,
    CostsReport,
  ),
  matrix: channel(
    'the compatibility matrix of the installed skills on every target (nothing written)',
    Empty,
    MatrixReport,
  ),
  keptCosts: channel(
    'the Costs figures kept from an earlier run of the open project, for the first paint while fresh ones are computed (may be out of date)',
    Empty,
    z.object({ kept: KeptCosts }),
  ),
  keptMatrix: channel(
    'the matrix kept from an earlier run of the open project, for the first paint while a fresh one is graded (may be out of date)',
    Empty,
    z.object({ kept: KeptMatrix }),
  ),
  explain: channel(
    'one matrix cell explained, as `skillsmith explain` does: reasons, what the target delivers, the cost',
    z.object({ skill: SkillName, target: Target }).strict(),
    z.object({ explanation: Explanation.nullable() }),
  ),
} as const;
