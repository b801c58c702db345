import type { AppliedWrite, RefusedWrite } from '../../../shared/sandbox/writes';
import type { Surface } from '../../../shared/text/surface';
import type { ArtifactVerdict } from './artifacts';
import type { BackendStatus, RestrictionRow, RunLimits } from '../sandbox/types';

export type RunMode = 'run' | 'gate';

/** What a caller (the CLI, the app's runs panel over IPC) asks for. Plain data. */
export interface RunRequest {
  /** The project root: where `.kitbash/skills/`, `kitbash.lock` and the audit log live. */
  readonly projectRoot: string;
  /** An installed skill's name. */
  readonly skill: string;
  readonly mode: RunMode;
  /** `run`: the script, relative to the skill's `scripts/`. `gate`: optional override of the verdict script. */
  readonly script?: string;
  readonly args: readonly string[];
  /** Variables passed explicitly into the run (NAME → value). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The explicit one-time override: run without the OS sandbox. Only honoured when the
   * sandbox cannot hold a required restriction; never remembered.
   */
  readonly unconfined?: boolean;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Resource caps over the defaults (`--max-processes` …). */
  readonly limits?: Partial<RunLimits>;
  /** Who words the refusals and limits: the command line names its flags, the app does not. */
  readonly surface?: Surface;
}

/** What will run and under which restrictions: shown before an override is confirmed. */
export interface RunPlan {
  readonly runId: string;
  readonly skill: string;
  readonly version: string;
  readonly integrity: string;
  readonly mode: RunMode;
  /** The script, relative to the skill folder ("scripts/check.sh"); absent for an artifact-only gate. */
  readonly script?: string;
  /** The argv as the script sees it (interpreter first when the script is not executable). */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The complete environment of the run. */
  readonly env: Readonly<Record<string, string>>;
  readonly backend: BackendStatus;
  readonly rows: readonly RestrictionRow[];
  /** `permissions.tools` as declared: shown and recorded, never enforced. */
  readonly tools: readonly string[];
  /** True when this run goes ahead without the OS sandbox (`--unconfined`). */
  readonly override: boolean;
  /** The artifact types a gate validates afterwards. */
  readonly produces: readonly string[];
}

export type RefusalReason =
  | 'not-installed'
  | 'invalid-skill'
  | 'integrity'
  | 'policy'
  | 'no-script'
  | 'not-a-gate'
  | 'no-verdict-source'
  | 'unenforced'
  | 'bad-request'
  | 'blocked';

/** Everything the runner reports while a run goes. */
export type RunEvent =
  | { readonly type: 'started'; readonly plan: RunPlan }
  | { readonly type: 'stdout'; readonly text: string }
  | { readonly type: 'stderr'; readonly text: string }
  | { readonly type: 'truncated'; readonly stream: 'stdout' | 'stderr'; readonly limitBytes: number }
  | { readonly type: 'exit'; readonly result: RunResult }
  | {
      readonly type: 'refused';
      readonly reason: RefusalReason;
      readonly message: string;
      readonly rows?: readonly RestrictionRow[];
    };

export type RunOutcome = 'exited' | 'timeout' | 'cancelled' | 'failed-to-start' | 'refused';

export interface RunResult {
  readonly runId: string;
  readonly outcome: RunOutcome;
  /** The script's exit code (null when it was killed or never ran). */
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly dropped: { readonly stdout: number; readonly stderr: number };
  /** Processes left when the script exited (all killed): a count, true when unknown, 0 for none. */
  readonly strays: number | true;
  /** Gate mode: each produced artifact's verdict. */
  readonly artifacts?: readonly ArtifactVerdict[];
  /** Gate mode: the overall verdict. */
  readonly verdict?: 'pass' | 'fail';
  /** Why the verdict failed, one line (gate mode). */
  readonly verdictDetail?: string;
  /**
   * `write = true`: the changes applied to the project from the run's staged copy, each
   * refused one with its reason, or why none were applied (D183).
   */
  readonly writes?: {
    readonly applied: readonly AppliedWrite[];
    readonly refused: readonly RefusedWrite[];
    readonly notApplied?: string;
  };
  /** Set when refused. */
  readonly refusal?: { readonly reason: RefusalReason; readonly message: string };
  readonly message?: string;
}
