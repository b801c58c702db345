import type { Skill } from '../ksf/model';

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
export interface ProjectView {
  /** Base name of the project folder (used for the agent-plugin package name). */
  readonly rootName: string;
  /** True when a file or folder exists at `path`. */
  exists(path: string): boolean;
  /** Text of a file (UTF-8), or undefined when it is absent, a folder, or unreadable. */
  read(path: string): string | undefined;
  /** Entries of a folder (empty when absent), by name. */
  list(dir: string): readonly { name: string; kind: 'file' | 'dir' | 'other' }[];
  /** Raw bytes of a file, when the view can provide them (to compare or prune copied scripts). */
  readBytes?(path: string): Uint8Array | undefined;
}

/** One file a target writes for one skill. `merge`: a section merged into a shared file. */
export interface EmittedFile {
  readonly path: string;
  readonly content: string | Uint8Array;
  readonly merge?: boolean;
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
  /** True when this target is active by detection. */
  detect(project: ProjectView): boolean;
  /** Target-specific rules the skill violates (Zed's name rule, Cline's eager note…). */
  constraints(skill: Skill): readonly ConstraintViolation[];
  /** Files, warnings and notes for one skill. Pure. */
  emit(skill: PreparedSkill, project: ProjectView): EmitResult;
}
