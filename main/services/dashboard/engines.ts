import type { ProjectConfig } from '../../../shared/project/config';
import type { FolderReads } from '../skills/folder-reads';
import type { Problem, StatusCard, TargetInfo } from '../../../shared/ipc/channels/project';

export type PinState = 'locked' | 'drift' | 'unlocked' | 'missing';

/**
 * The decisions the dashboard shows but does not make. Each belongs to another area's
 * engine (targets, standing cost and compile drift: shared/targets + main/services/compile;
 * lock, policy and the project status: shared/lock, shared/policy, main/services/workspace).
 * The scan reaches them only through this seam — ./adapters.ts wires them, never copying
 * their logic — so a test can also swap in fixed answers.
 */
export interface ScanEngines {
  /** Every known target, with detection and `[project].targets` applied. */
  targets(): { targets: TargetInfo[]; problems: Problem[] };
  /** Tokens the installed skill in folder `dir` adds to every session on `target`; null when unknown. */
  standing(dir: string, target: TargetInfo): number | null;
  /** Lock integrity: the card, and per installed skill folder its pin state and source. */
  lock(): {
    card: StatusCard;
    perSkill: ReadonlyMap<string, { state: PinState; source: string | null; signedBy: string | null }>;
    problems: Problem[];
  };
  /** `[policy]` against the installed skills. */
  policy(): { card: StatusCard; problems: Problem[] };
  /** Do the compiled agent files match what compile would write now? */
  compiled(): { card: StatusCard; problems: Problem[] };
}

/** `reads`: how the engines read skill folders — the scan passes reads that answer each folder once. */
export type DashboardEngines = (root: string, config: ProjectConfig, reads?: FolderReads) => ScanEngines;
