/**
 * The sandbox vocabulary: what a run may do (a policy), which OS mechanism confines it
 * (a backend), and how honestly each restriction is held on this machine (a label).
 */

export type BackendId = 'bubblewrap' | 'sandbox-exec' | 'none';

export const LABEL = {
  bubblewrap: 'enforced (bubblewrap)',
  'sandbox-exec': 'enforced (sandbox-exec)',
  runner: 'enforced (runner)',
  advisory: 'advisory — not enforced here',
} as const;
export type EnforcementLabel = (typeof LABEL)[keyof typeof LABEL];

/** The restrictions every run carries, one row each in `sandbox probe` and the audit log. */
export const RESTRICTIONS = ['network', 'filesystem', 'skill-folder', 'home', 'environment', 'processes', 'privileges', 'output', 'tools'] as const;
export type RestrictionId = (typeof RESTRICTIONS)[number];

/**
 * Rows a run refuses to start without (fail closed). `processes` is not among them: the
 * timeout and the kill of the script's own group hold everywhere; only the guarantee
 * that a detached grandchild dies too needs a PID namespace. `tools` is a grammar no
 * OS mechanism reads, so it is always disclosed as advisory and never blocks.
 */
export const REQUIRED: ReadonlySet<RestrictionId> = new Set(['network', 'filesystem', 'skill-folder', 'home', 'environment', 'privileges']);

/** Everything the backend needs to confine one command. Paths are absolute. */
export interface SandboxPolicy {
  /** `permissions.network`: false → a network namespace with only its own loopback. */
  readonly network: boolean;
  /** `permissions.write`: false → everything read-only except `scratchDir` (and `extraWritable`). */
  readonly write: boolean;
  /** `permissions.tools`, shown and recorded, never enforced. */
  readonly tools: readonly string[];
  /** The project root: the working directory, writable only when `write`. */
  readonly workspace: string;
  /** The skill's own folder: always read-only. */
  readonly skillDir: string;
  /** Folders under the workspace that stay read-only even when `write` (installed skills, the lock). */
  readonly readOnlyInWorkspace: readonly string[];
  /** Writable even when `write` is false (a gate's `.kitbash/artifacts/`). */
  readonly extraWritable: readonly string[];
  /**
   * Paths made readable again inside the hidden folders (an eval runner's executable and
   * declared `read` paths); read-only, bound after the homes are covered.
   */
  readonly extraReadable?: readonly string[];
  /** Per-run scratch folder (TMPDIR), always writable, removed after the run. */
  readonly scratchDir: string;
  /** Per-run empty private home (HOME), removed after the run. */
  readonly homeDir: string;
  /** Real home folders of the invoking user, hidden from the run (empty and read-only). */
  readonly hiddenHomes: readonly string[];
  /** The complete environment of the run (already allowlisted). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Cap per stream (stdout, stderr) of what is kept and forwarded. */
  readonly maxOutputBytes: number;
}

/** What a probe found out about one backend on this machine. */
export interface BackendStatus {
  readonly backend: BackendId;
  /** True only when a trivial sandboxed command actually ran. */
  readonly works: boolean;
  /** The binary that was tried (absent for `none`). */
  readonly path?: string;
  readonly version?: string;
  /** Why it does not work here (or that no backend exists for this OS). */
  readonly reason?: string;
  /** What the failing probe printed, first lines. */
  readonly detail?: string;
}

export interface RestrictionRow {
  readonly id: RestrictionId;
  /** What the run is held to, in words ("no network — only a private loopback"). */
  readonly what: string;
  readonly label: EnforcementLabel;
  /** Whether a run refuses to start when this row is advisory. */
  readonly required: boolean;
}

/** A spawnable command: the backend wraps the script's argv into this. */
export interface WrappedCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** Environment of the spawned wrapper itself (never the parent's). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Whether the wrapper reports processes left behind on fd 3. */
  readonly reportsStrays: boolean;
  /** Bytes the wrapper reads from fd 4 before it starts (bwrap's `--seccomp 4`). */
  readonly fd4?: Uint8Array;
}
