import type { Skill } from '../ksf/model';
import type { PowerKey } from '../ksf/powers';
import type { GuardDecision } from '../sandbox/guard';

/** Target ids, in the reference's emit order. */
export const TARGET_IDS = [
  'claude-code',
  'cursor',
  'agents',
  'zed',
  'copilot',
  'cline',
  'windsurf',
  'gemini',
  'aider',
  'agentsmd',
  'agent-plugins',
] as const;
export type TargetId = (typeof TARGET_IDS)[number];

/** lazy: only the description is resident until the agent loads the body; eager: the whole text is. */
export type Loading = 'lazy' | 'eager';

/** What a skill can ask for in `[targets].requires`. */
export type Capability = 'scripts' | 'hooks' | 'subagents' | 'network';

/**
 * skill-dir: `<dir>/<name>/SKILL.md` (Agent Skills layout); rule-file: one markdown file per
 * skill; merged-section: a marked section in a shared markdown file.
 */
export type FileShape = 'skill-dir' | 'rule-file' | 'merged-section';

/**
 * Read-only view of the project's current files, relative '/'-separated paths. main/ backs
 * it with the disk; the renderer (or a test) with an in-memory map.
 */
export interface ProjectFiles {
  /** Base name of the project folder (used for the agent-plugin package name). */
  readonly rootName: string;
  /** True when a file or folder exists at `path`. */
  exists(path: string): boolean;
  /** Text of a file (UTF-8), or undefined when it is absent, a folder, or unreadable. */
  read(path: string): string | undefined;
  /** Entries of a folder (empty when absent), by name. */
  list(dir: string): readonly { name: string; kind: 'file' | 'dir' | 'other' }[];
  /** Raw bytes of a file, when the view can provide them (to compare or prune delivered files). */
  readBytes?(path: string): Uint8Array | undefined;
  /** True when the file has an execute bit, when the view knows (a disk does; memory views may not). */
  isExecutable?(path: string): boolean;
  /**
   * True when every answer is fixed once given and asking again has no effect (nothing records
   * the reads): a planner run again over this view may reuse what it derived from it.
   */
  readonly snapshot?: boolean;
}

/** One file a target writes for one skill. `merge`: a section merged into a shared file. */
export interface EmittedFile {
  readonly path: string;
  readonly content: string | Uint8Array;
  readonly merge?: boolean;
  /**
   * A file of the skill folder delivered beside SKILL.md (or its delivery record): read by the agent only on demand.
   */
  readonly bundled?: boolean;
  /** Delivered with its execute bits set (the source file had them). */
  readonly executable?: boolean;
}

export interface EmitResult {
  readonly files: readonly EmittedFile[];
  /** Actionable (fail `--strict`). */
  readonly warnings: readonly string[];
  /** Informational (never fail). */
  readonly notes: readonly string[];
}

/** A skill ready for emission: templates resolved and the permissions block appended. */
export interface PreparedSkill {
  readonly skill: Skill;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** Resolved body (what budgets are charged against). */
  readonly body: string;
  /** What targets emit: the resolved body plus the permissions block. */
  readonly emitBody: string;
}

/** A rule a target enforces on the skill beyond KSF itself; `drops`: the agent ignores the skill. */
export interface ConstraintViolation {
  readonly code: string;
  readonly message: string;
  readonly drops: boolean;
}

export interface VendorDoc {
  readonly title: string;
  readonly url: string;
  /** ISO date the format was last checked against this document. */
  readonly checked: string;
}

/** An always-loaded file the agent reads into every session, and its documented read limit. */
export interface AlwaysLoadedFile {
  readonly path: string;
  /** Bytes the agent reads (more is cut off or ignored), from the vendor's documentation. */
  readonly maxBytes: number;
  /** Where the figure comes from. */
  readonly source: string;
}

/** A documented limit on a skill's description; over it the agent truncates (`drops: false`) or ignores the skill. */
export interface DescriptionLimit {
  readonly max: number;
  readonly unit: 'chars' | 'bytes';
  readonly drops: boolean;
  readonly source: string;
}

/** A place in a project where this agent's users keep hand-written skills (read by import/adoption). */
export interface ImportSource {
  /** Project-relative folder. */
  readonly dir: string;
  /** skill-dir: `<dir>/<name>/SKILL.md` (+ files); rule-file: `<dir>/<name><suffix>`. */
  readonly layout: 'skill-dir' | 'rule-file';
  /** For rule-file: the file name ending (`.mdc`, `.md`). */
  readonly suffix?: string;
}

/**
 * How the agent lists skills at session start, from its documentation or measured (what gets
 * truncated, dropped or named only); neither limit set: it was measured to list every skill
 * in full.
 */
export interface ListingBudget {
  /** Characters of one skill's description shown in the listing (more is cut). */
  readonly perSkillChars?: number;
  /** Characters the listing may take (what happens past it: `overflow`). */
  readonly totalChars?: number;
  /**
   * What the agent does past `totalChars`: `drop` (the default) leaves out the skills that no
   * longer fit, in name order; `shorten` cuts every description longer than an even share of
   * the room left, and leaves a skill out only when even its entry without a description
   * does not fit; `name-only` lists every skill's name and leaves out the descriptions that
   * no longer fit.
   */
  readonly overflow?: 'drop' | 'shorten' | 'name-only';
  /**
   * Characters an entry takes besides its description, `fixed` plus `perName` times the
   * name's length (an agent that lists the path repeats the name). Default: 4 + the name.
   */
  readonly entryChars?: { readonly fixed: number; readonly perName: number };
  /** The agent's own skills, listed before the project's and sharing `totalChars` with them. */
  readonly builtIn?: readonly { readonly name: string; readonly descriptionChars: number }[];
  readonly source: string;
  /** The agent version and day the behaviour was measured with the real CLI (tests/agents/), if it was. */
  readonly measured?: { readonly version: string; readonly checked: string };
}

/**
 * A hand-written instruction file the agent reads (`suffix` absent), or a folder whose files
 * ending in `suffix` each are one; `import` folds them into a skill.
 */
export interface InstructionSource {
  readonly path: string;
  readonly suffix?: string;
  readonly loading: Loading;
}

/** Why a target gets no MCP file. Reasons in order of how final they are (the status matrix lists them so). */
export const MCP_GAP_REASONS = ['no-mcp-surface', 'unconfirmed-path', 'no-project-scope'] as const;
export interface McpGap {
  readonly reason: (typeof MCP_GAP_REASONS)[number];
  readonly detail: string;
}

/** The layout of a target's MCP file (shared/mcp/emit.ts lowers servers into each). */
export type McpShape =
  | 'claude-mcp-json'
  | 'copilot-mcp-json'
  | 'cursor-mcp-json'
  | 'gemini-settings'
  | 'zed-settings'
  | 'agent-plugin-mcp-json';

/** Where a target's MCP servers land (`merged`: a shared settings file merged by key), or why they cannot. */
export type McpSurface =
  { readonly path: string; readonly shape: McpShape; readonly merged: boolean } | { readonly gap: McpGap };

/** A folder of generated output compile may prune from. */
export interface ManagedDir {
  readonly dir: string;
  readonly suffix: string;
  readonly wholeDir?: true;
}

/** A shell command an agent's hook was asked about, read from the hook's input. */
export interface GuardQuestion {
  /** The command about to run; absent when the tool is not one that runs commands (then it passes). */
  readonly command?: string;
  /** Where it runs (absolute). */
  readonly cwd: string;
  /** The project root the agent was started in (absolute). */
  readonly root: string;
  /** The tool's whole input, as the agent sent it (a routed command replaces only its command). */
  readonly toolInput: Readonly<Record<string, unknown>>;
}

/**
 * How an agent lets a project hold a delivered skill's scripts to their declared permissions
 * (SPEC D200): a hook the agent runs before each shell command, merged into a project
 * settings file, that routes a run of a delivered script through `skillsmith run`.
 */
export interface ScriptGuard {
  /** Project-relative settings file the hook lives in. */
  readonly settings: string;
  /**
   * `current` with the hook for `guarded` (skill names) merged in, or taken out when `guarded` is
   * empty — the user's own entries untouched. `content` undefined: nothing is left of the file.
   * `has`: whether `current` holds Skillsmith's hook.
   */
  merge(
    current: string | undefined,
    guarded: readonly string[],
  ): { readonly content: string | undefined; readonly had: boolean } | { readonly error: string };
  /** The hook's input (untrusted bytes the agent wrote to its stdin), or why it cannot be read. */
  readInput(
    text: string,
    env: Readonly<Record<string, string | undefined>>,
  ): { readonly ok: true; readonly value: GuardQuestion } | { readonly ok: false; readonly error: string };
  /** What the hook prints for a decision; `routed`: the command that replaces a routed one. */
  answer(decision: GuardDecision, question: GuardQuestion, routed?: string): string;
  /** Where the hook's contract is documented, and the version it was proven with (tests/agents). */
  readonly source: string;
  readonly verified: { readonly version: string; readonly checked: string };
}

/** What an emitter may know about the rest of the compile. */
export interface EmitContext {
  /** The targets this compile writes for. */
  readonly active: readonly TargetDef[];
}

export interface TargetDef {
  readonly id: TargetId;
  /** The coding agent(s) this target serves, as users know them. */
  readonly agent: string;
  /** Paths at the project root whose presence selects this target (any one suffices). */
  readonly markers: readonly string[];
  /** Human description of where output goes (`<n>` = skill name). */
  readonly outputs: readonly string[];
  readonly shape: FileShape;
  readonly loading: Loading;
  /** Capabilities the emitter really delivers (each proven by a test). */
  readonly capabilities: readonly Capability[];
  /**
   * How compile lowers `[permissions].tools` into the agent's own `allowed-tools` field
   * (`comma` — Claude Code's list; `space` — the Agent Skills form); absent: tools stay prose.
   * The install review reads it to say where a declared tool holds natively.
   */
  readonly nativeTools?: 'comma' | 'space';
  readonly vendorDoc: VendorDoc;
  /**
   * The folder this target writes skill folders into (`<skillDir>/<name>/…`); absent for rule files and merged
   * sections.
   */
  readonly skillDir?: string;
  /**
   * True when the agent also reads `.agents/skills/`: once some target writes that folder, this
   * target's own `skillDir` copy is not written, so the skill is not offered twice.
   */
  readonly readsAgentsSkills?: true;
  /** Files the agent loads in full into every session, with their byte budgets. */
  readonly alwaysLoaded: readonly AlwaysLoadedFile[];
  /**
   * Frontmatter keys the agent documents for a skill. `any`: its reader ignores keys it does
   * not know, so every source key is delivered; a list: keys outside it are dropped (and said so).
   */
  readonly frontmatterKeys: 'any' | readonly string[];
  /** True when the agent honours `disable-model-invocation: true` (user-only skills). */
  readonly userInvocation: boolean;
  /**
   * What the agent does with a delivered SKILL.md beyond reading it, from its documentation:
   * the frontmatter keys it acts on (runs `hooks`, pre-approves `allowed-tools`, …) and whether
   * it runs the body's dynamic-context commands when the skill loads. Absent: none. The install
   * review reads it to say which delivered powers the agent acts on; a key written into the
   * file that is not listed is reported as delivered but not acted on.
   */
  readonly actsOn?: { readonly keys: readonly PowerKey[]; readonly dynamicContext?: true; readonly source: string };
  readonly descriptionLimit?: DescriptionLimit;
  readonly listingBudget?: ListingBudget;
  /** Where hand-written skills for this agent live in a project (for import --write). */
  readonly importFrom: readonly ImportSource[];
  /** Project-relative paths whose changes can change this target's output or detection (for watchers). */
  readonly watchRoots: readonly string[];
  /**
   * True for a lazy skill-folder target whose agents also read AGENTS.md: when it is active,
   * AGENTS.md carries an index of the skills instead of their bodies.
   */
  readonly servesAgentsMdReaders: boolean;
  /**
   * Output locations compile scans for stale generated files it may prune (`wholeDir`: one
   * folder per skill, `<dir>/<name><suffix>` is its SKILL.md). Scanned whether or not the
   * target is active, so output of a target dropped from the project is cleaned up too.
   */
  readonly managedDirs: readonly ManagedDir[];
  /**
   * The hook that holds a delivered skill's scripts to their declared permissions inside the
   * agent; absent: the agent offers none (`guardAbsence` says why), and declared permissions
   * are advisory there.
   */
  readonly scriptGuard?: ScriptGuard;
  /** Why the agent has no script guard, from its documentation (and binary, for the CLIs). */
  readonly guardAbsence?: string;
  /** How the target carries declared MCP servers; absent: it writes none. */
  readonly mcp?: McpSurface;
  /** Hand-written instruction files and rule folders this agent reads (for import). */
  readonly instructions: readonly InstructionSource[];
  /** One line `doctor` prints after the target id (who else it serves), when there is one. */
  readonly doctorNote?: string;
  /**
   * Project facts outside the skill that change this target's emit (a folder that redirects
   * output, a config it quotes): compile re-emits only when they change.
   */
  emitFacts?(project: ProjectFiles): string;
  /** Project-level notes once per compile (`agentsDirWritten`: some active target writes `.agents/skills/`). */
  planNotes?(ready: readonly PreparedSkill[], plan: { readonly agentsDirWritten: boolean }): readonly string[];
  /** Project-level files (not per skill) compile writes when at least one skill compiled. */
  projectFiles?(project: ProjectFiles): readonly { path: string; content: string }[];
  /** True when this target is active by detection. */
  detect(project: ProjectFiles): boolean;
  /** Target-specific rules the skill violates (Zed's name rule, Cline's eager note…). */
  constraints(skill: Skill): readonly ConstraintViolation[];
  /** Files, warnings and notes for one skill. Pure. `context`: the compile's other targets. */
  emit(skill: PreparedSkill, project: ProjectFiles, context?: EmitContext): EmitResult;
}
