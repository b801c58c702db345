import type { Skill } from '../../../shared/ksf/model';
import type { ProjectConfig } from '../../../shared/project/config';
import type { Problem, StatusCard, TargetInfo } from '../../../shared/ipc/channels/project';

export type PinState = 'locked' | 'drift' | 'unlocked' | 'missing';

/**
 * The decisions the dashboard shows but does not make. Each belongs to another area's
 * engine (targets and compile: shared/targets, shared/compile; lock and policy:
 * shared/lock, main/services/lock, shared/policy). The scan reaches them only through
 * this seam — one adapter per engine in ./adapters.ts, never a copy of its logic.
 */
export interface ScanEngines {
  /** Every known target, with detection and `[project].targets` applied. */
  targets(): { targets: TargetInfo[]; problems: Problem[] };
  /** Tokens one loaded skill adds to every session on one target; null when it cannot be computed. */
  standing(skill: Skill, target: TargetInfo): number | null;
  /** Lock integrity: the card, and per installed skill folder its pin state and source. */
  lock(installed: readonly string[]): { card: StatusCard; perSkill: ReadonlyMap<string, { state: PinState; source: string | null }>; problems: Problem[] };
  /** `[policy]` against the installed skills. */
  policy(skills: readonly Skill[]): { card: StatusCard; problems: Problem[] };
  /** Do the compiled agent files match what compile would write now? */
  compiled(skills: readonly Skill[], targets: readonly TargetInfo[]): { card: StatusCard; problems: Problem[] };
}

export type DashboardEngines = (root: string, config: ProjectConfig) => ScanEngines;
