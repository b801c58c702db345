/**
 * Evals: the `evals/*.eval.yaml` files of a skill, the runners that execute them, and the
 * results. KSF's shape (tier, fixture, task, runner, assert with artifact/where/expect,
 * files_unchanged) extended additively (SPEC.md "Evals").
 */

export const EVAL_TIERS = ['static', 'audit', 'behavioral', 'trigger'] as const;
export type EvalTier = (typeof EVAL_TIERS)[number];

/** Tiers that need an agent (a runner); static stays with `skillsmith test`. */
export const RUNNER_TIERS: readonly EvalTier[] = ['audit', 'behavioral', 'trigger'];

export type Assertion =
  | {
      readonly kind: 'artifact';
      readonly ref: string;
      readonly where?: string;
      readonly expect?: unknown;
      readonly hasExpect: boolean;
    }
  | { readonly kind: 'files_unchanged'; readonly globs: readonly string[] }
  | { readonly kind: 'files_changed'; readonly globs: readonly string[] }
  | { readonly kind: 'output_contains'; readonly text: string }
  | { readonly kind: 'output_matches'; readonly pattern: string }
  | { readonly kind: 'exit_code'; readonly code: number }
  | { readonly kind: 'skill_triggered'; readonly expected: boolean };

export type AssertionKind = Assertion['kind'];
export const ASSERTION_KINDS: readonly AssertionKind[] = [
  'artifact',
  'files_unchanged',
  'files_changed',
  'output_contains',
  'output_matches',
  'exit_code',
  'skill_triggered',
];

export interface EvalFile {
  /** The file name without `.eval.yaml`. */
  readonly name: string;
  /** Display path, e.g. `.kitbash/skills/x/evals/basic.eval.yaml`. */
  readonly file: string;
  readonly tier: EvalTier;
  readonly description?: string;
  /** Folder relative to the skill (KSF `fixtures/…`); absent → an empty workspace. */
  readonly fixture?: string;
  readonly task?: string;
  /** The runner id the file asks for (`--runner` overrides it). */
  readonly runner?: string;
  readonly repeat: number;
  /** Pass rate needed, 0..1. */
  readonly threshold: number;
  readonly assert: readonly Assertion[];
  readonly shouldTrigger: readonly string[];
  readonly shouldNotTrigger: readonly string[];
}

/** How a runner's output is read. `text`: not parsed — skill loading is always "unknown". */
export const TRANSCRIPT_FORMATS = ['claude-code', 'codex', 'gemini', 'text'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export interface RunnerConfig {
  readonly id: string;
  /** argv; `{task}` inside any element is replaced by the task text. */
  readonly command: readonly string[];
  /** The compile target whose layout the trial workspace gets. */
  readonly target: string;
  readonly timeoutMs: number;
  readonly network: boolean;
  /** Names of variables passed through from the parent environment. */
  readonly env: readonly string[];
  /** Extra read-only paths (absolute, or relative to the project root). */
  readonly read: readonly string[];
  /**
   * Files of the caller's home (relative to it) copied into each trial's private HOME: an
   * agent's config it must be able to write beside (Codex writes its sessions next to its
   * config.toml), or a login the user chooses to lend it. Copies, so nothing it changes
   * reaches the originals.
   */
  readonly home: readonly string[];
  readonly transcript: TranscriptFormat;
  /** Where the preset's command comes from, and when it was checked. */
  readonly doc?: string;
  readonly checked?: string;
  /** The preset this runner starts from, if any. */
  readonly preset?: string;
  /**
   * The npm package of the agent and the versions whose headless output was read through
   * the real CLI (tests/agents/): another version's transcript may read wrong.
   */
  readonly verified?: { readonly package: string; readonly agent: string; readonly versions: readonly string[] };
}

/** Three-valued: a transcript that does not say is never read as a pass. */
export type Tri = 'yes' | 'no' | 'unknown';

export interface TranscriptEntry {
  readonly kind: 'message' | 'tool' | 'result' | 'error';
  readonly text: string;
  /** Tool name for `tool`. */
  readonly tool?: string;
}

export interface Transcript {
  /** Whether the skill's instructions were loaded. */
  readonly skillLoaded: Tri;
  readonly tools: readonly string[];
  readonly entries: readonly TranscriptEntry[];
  /** The agent's final text (for output_contains / output_matches), else all stdout. */
  readonly output: string;
  /** Set when the format was expected but the stream could not be read. */
  readonly problem?: string;
  /**
   * Whether the agent's own stream says its session ran to a normal end: `yes` (its final
   * event, not an error), `no` (it ended in an API, auth or connection error, or never
   * reached its end), `unknown` for plain text, which says nothing about it.
   */
  readonly finished: Tri;
}

export interface AssertionResult {
  readonly kind: AssertionKind;
  /** `unknown` counts as a failure everywhere. */
  readonly status: 'pass' | 'fail' | 'unknown';
  readonly detail: string;
}

export type TrialOutcome = 'completed' | 'timeout' | 'not-found' | 'crashed' | 'unparseable' | 'refused' | 'cancelled';

/**
 * Tokens (and cost, where the agent says) one trial used, as its transcript reports them.
 * `inputTokens` counts every prompt token, cached ones included; `cachedTokens` is the part
 * read from the provider's cache.
 */
export interface TrialUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedTokens?: number;
  readonly costUsd?: number;
}

export interface TrialResult {
  readonly index: number;
  /** True when run without the skill (`--baseline`). */
  readonly baseline: boolean;
  /** The task for this trial (a trigger eval runs one trial per prompt). */
  readonly task: string;
  /** Trigger evals: whether this prompt should trigger the skill. */
  readonly shouldTrigger?: boolean;
  readonly outcome: TrialOutcome;
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly passed: boolean;
  readonly skillLoaded: Tri;
  readonly tools: readonly string[];
  readonly assertions: readonly AssertionResult[];
  /** Files the agent changed, workspace-relative, sorted. */
  readonly changed: readonly string[];
  readonly message?: string;
  /** Absent when the transcript does not report it: unknown, never zero. */
  readonly usage?: TrialUsage;
}

export interface TriggerScore {
  readonly precision: number | null;
  readonly recall: number | null;
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly trueNegatives: number;
  readonly unknown: number;
}

export interface Interval {
  readonly low: number;
  readonly high: number;
}

export interface EvalResult {
  readonly skill: string;
  readonly version: string;
  readonly eval: string;
  readonly tier: EvalTier;
  readonly runner: string;
  readonly trials: number;
  readonly threshold: number;
  readonly passed: boolean;
  readonly passRate: number;
  readonly baselinePassRate: number | null;
  /** Skill's effect: passRate − baselinePassRate, with a Wilson-based interval when trials > 1. */
  readonly delta: { readonly value: number; readonly interval: Interval | null } | null;
  /** Share of trials whose transcript shows the skill loaded; null when none could tell. */
  readonly triggeredRate: number | null;
  readonly trigger?: TriggerScore;
  /** Assertions summarised over the trials (passed only when every trial passed it). */
  readonly assertions: readonly AssertionResult[];
  readonly trialResults: readonly TrialResult[];
  /** Why nothing could run (a runner that cannot start, a missing fixture). */
  readonly error?: string;
}
