export type CheckStatus = 'pass' | 'warn' | 'fail';

/** A place in one of the skill's files; lines and columns are 1-based, columns in UTF-16 units. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface Check {
  readonly id: CheckId;
  readonly status: CheckStatus;
  readonly detail?: string;
  readonly locations?: readonly Location[];
}

/** Every check id, in report order. */
export const CHECK_IDS = [
  'manifest',
  'name-convention',
  'references',
  'budget',
  'standing',
  'gate-verdict',
  'mcp',
  'artifacts',
  'schema',
  'json-schema',
  'injection',
  'visible-text',
  'dynamic-context',
  'remote-exec',
  'secrets',
  'links',
  'evals',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** The checks that block an install whatever the user answers (`remote-exec` may be exempted by policy). */
export const SAFETY_CHECK_IDS: readonly CheckId[] = [
  'visible-text',
  'dynamic-context',
  'remote-exec',
  'secrets',
  'mcp',
];

/**
 * The checks whose verdict reads only the skill's files, never its manifest (the skill's
 * name aside, which templates may print): they still run while skill.toml is broken.
 */
export const FILE_CHECK_IDS: readonly CheckId[] = [
  'references',
  'injection',
  'visible-text',
  'dynamic-context',
  'remote-exec',
  'secrets',
  'links',
  'evals',
];

/** A pattern hit inside one text: `label` names what matched. */
export interface Hit {
  readonly label: string;
  readonly offset: number;
  readonly length: number;
  readonly match: string;
}
