/**
 * The sandbox vocabulary: what a run may do (a policy), which OS mechanism confines it
 * (a backend), and how honestly each restriction is held on this machine (a label).
 */

export type BackendId = 'bubblewrap' | 'sandbox-exec' | 'none';

export const LABEL = {
  bubblewrap: 'enforced (bubblewrap)',
  'sandbox-exec': 'enforced (sandbox-exec)',
  runner: 'enforced (runner)',
  cgroup: 'enforced (cgroup)',
  rlimit: 'enforced (rlimit)',
  advisory: 'advisory — not enforced here',
} as const;
export type EnforcementLabel = (typeof LABEL)[keyof typeof LABEL];

/** The restrictions every run carries, one row each in `sandbox probe` and the audit log. */
export const RESTRICTIONS = [
  'network',
  'unix-sockets',
  'filesystem',
  'reading',
  'skill-folder',
  'pinning',
  'home',
  'environment',
  'processes',
  'limit-processes',
  'limit-files',
  'limit-cpu',
  'limit-memory',
  'limit-scratch',
  'privileges',
  'output',
  'tools',
] as const;
export type RestrictionId = (typeof RESTRICTIONS)[number];

/**
 * Rows a run refuses to start without (fail closed). `processes` is not among them: the
 * timeout and the kill of the script's own group hold everywhere; only the guarantee
 * that a detached grandchild dies too needs a PID namespace. Neither are `reading` and
 * the limits, which macOS's sandbox-exec cannot narrow (shown as advisory there). `tools`
 * is a grammar no OS mechanism reads, so it is always disclosed as advisory.
 */
export const REQUIRED: ReadonlySet<RestrictionId> = new Set([
  'network',
  'unix-sockets',
  'filesystem',
  'skill-folder',
  'home',
  'environment',
  'privileges',
]);

/** Resource caps of one run; each has a default and a `skillsmith run` option. */
export interface RunLimits {
  /** Processes (and threads) alive at once in the run. */
  readonly processes: number;
  /** Open file descriptors per process. */
  readonly openFiles: number;
  /** CPU seconds per process. */
  readonly cpuSeconds: number;
  /** Memory per process (data segment; the whole run when a memory cgroup is available). */
  readonly memoryBytes: number;
  /** Size of each private tmpfs (/tmp, TMPDIR, HOME). */
  readonly scratchBytes: number;
}

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
  /** Protected paths under the workspace that stay read-only even when `write` (existing or not). */
  readonly readOnlyInWorkspace: readonly string[];
  /** Folders bound writable at their own path (an eval trial's throwaway workspace). */
  readonly writableEntries: readonly string[];
  /**
   * `write`: the staged copy the run writes into instead of the project (D183), and the
   * project's protected top-level entries shown read-only over their stand-ins in it.
   */
  readonly stage?: { readonly dir: string; readonly bound: readonly string[] };
  readonly limits: RunLimits;
  /** Writable even when `write` is false (a gate's `.kitbash/artifacts/`). */
  readonly extraWritable: readonly string[];
  /**
   * Paths made readable again inside the hidden folders (an eval runner's executable and
   * declared `read` paths); read-only, bound after the homes are covered.
   */
  readonly extraReadable?: readonly string[];
  /**
   * The git directory of the repository the project is a folder of (`enclosingGit`),
   * shown read-only so `git diff` and `git log` work in a project below its repository's
   * top; empty when the project is the top (its `.git` is inside the project already).
   */
  readonly enclosingGit?: readonly string[];
  /** Per-run scratch folder (TMPDIR), always writable, removed after the run. */
  readonly scratchDir: string;
  /** Per-run empty private home (HOME), removed after the run. */
  readonly homeDir: string;
  /**
   * Files copied into `homeDir` on the host before the run (an eval runner's `home` list),
   * relative to it. Where HOME is a private tmpfs they are bound over it, writable: the run
   * may change the copies, never the originals.
   */
  readonly homeFiles?: readonly string[];
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
  /** Whether `network = true` can get its own network namespace here (pasta). */
  readonly netns?: { readonly works: boolean; readonly path?: string; readonly reason?: string };
  /** Whether the run's process count and memory can be capped by a cgroup here. */
  readonly cgroup?: { readonly pids: boolean; readonly memory: boolean };
  /** Whether RLIMIT_NPROC binds the run (it does not for root). */
  readonly nprocBinds?: boolean;
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
  /**
   * Run once the sandbox exists and before the script starts: bwrap reports its PID on
   * fd 5 and waits for a byte on fd 6. Resolves to an error message, or undefined.
   */
  readonly setup?: (childPid: number) => Promise<string | undefined>;
  /** Run after the command ended (stop helpers, read limit counters); names a limit the run hit. */
  readonly teardown?: () => LimitHit | undefined;
}

/** A cgroup limit whose counter shows the run reached it (the caller words it). */
export type LimitHit = 'processes' | 'memory';
