/**
 * The editor's diagnostics as data: what the worker answers, and what the markers, the
 * Problems list and the code actions show.
 */

export type Severity = 'error' | 'warning' | 'info';

/** 1-based lines and UTF-16 columns, end exclusive (Monaco's convention). */
export interface Range {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface TextEdit {
  readonly range: Range;
  readonly text: string;
}

/**
 * Something a quick fix does outside the buffer, never a write of its own: open another
 * screen, or the re-pin review of the skill open here (it pins only what is approved).
 */
export type EditorCommand =
  | { readonly kind: 'navigate'; readonly view: string; readonly arg?: string }
  | { readonly kind: 'repin'; readonly dir: string };

export interface QuickFix {
  readonly title: string;
  /** Edits to the diagnostic's own file (undoable); empty for a fix that only runs `command`. */
  readonly edits: readonly TextEdit[];
  readonly command?: EditorCommand;
}

export interface Diagnostic {
  readonly file: string;
  readonly severity: Severity;
  /** The check id (`secrets`, `references`, `toml`, `manifest`, `spec`, `lock`, …). */
  readonly code: string;
  readonly message: string;
  readonly range: Range;
  /** A safety finding: blocks an install whatever the user answers. */
  readonly blocking: boolean;
  readonly fixes: readonly QuickFix[];
}

export interface Meter {
  readonly bodyTokens: number;
  readonly budget: number;
  readonly stubTokens: number;
  readonly standing: number;
  readonly disclosure: 'lazy' | 'eager';
}

export interface Analysis {
  readonly diagnostics: readonly Diagnostic[];
  /** Checks that passed/failed, for the summary line (same ids as the CLI). */
  readonly summary: { readonly errors: number; readonly warnings: number; readonly blocking: number };
  /** Null when the skill does not load (the hard error is among the diagnostics). */
  readonly meter: Meter | null;
  /** The standing stub inside SKILL.md (what a lazy agent keeps in every session). */
  readonly stub: Range | null;
  /** Milliseconds the engine took. */
  readonly ms: number;
}

export interface AnalyzeInput {
  /** Folder name, for a bare skill's derived name. */
  readonly dir: string;
  /** Every text file of the skill, skill-relative path → current (possibly unsaved) text. */
  readonly texts: Readonly<Record<string, string>>;
  /** Files that are not text, with their bytes (scripts in other encodings, images). */
  readonly binaries?: Readonly<Record<string, Uint8Array>>;
  /** Sub-folders, so an empty folder is part of the tree. */
  readonly dirs?: readonly string[];
  /** kitbash.lock pins other bytes than the saved files (the dashboard's verdict). */
  readonly drift?: boolean;
}
