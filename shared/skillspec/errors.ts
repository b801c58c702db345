/**
 * Load and validation errors, with the reference's message shapes. The CLI prints
 * `error: <message>`; the kinds let callers (tests, the editor) tell them apart.
 */

import { CodedError } from '../result';

export type SpecErrorKind =
  | 'read'
  | 'parse_yaml'
  | 'unsupported_schema'
  | 'missing_field'
  | 'invalid_identifier'
  | 'duplicate_id'
  | 'unknown_reference'
  | 'invalid_input';

export interface SourcePosition {
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
}

/**
 * A CodedError (always `invalid-input`: the spec, not the request, is at fault) that keeps
 * the reference's error kind, the field and value at fault, and where in the source it is.
 */
export class SpecError extends CodedError {
  override readonly name = 'SpecError';
  constructor(
    readonly kind: SpecErrorKind,
    message: string,
    readonly field?: string,
    readonly value?: string,
    /** Where in the YAML source, when the error comes from the reader. */
    readonly position?: SourcePosition,
  ) {
    super('invalid-input', message);
  }
}

export const unsupportedSchema = (found: string): SpecError =>
  new SpecError('unsupported_schema', `unsupported schema ${debugStr(found)}; expected skillspec/v0`, 'schema', found);
export const missingField = (field: string): SpecError =>
  new SpecError('missing_field', `spec is missing required field ${field}`, field);
export const invalidIdentifier = (field: string, value: string): SpecError =>
  new SpecError('invalid_identifier', `invalid identifier ${debugStr(value)} in ${field}`, field, value);
export const duplicateId = (field: string, value: string): SpecError =>
  new SpecError('duplicate_id', `duplicate identifier ${debugStr(value)} in ${field}`, field, value);
export const unknownReference = (field: string, value: string): SpecError =>
  new SpecError('unknown_reference', `unknown reference ${debugStr(value)} in ${field}`, field, value);
export const invalidInput = (message: string): SpecError => new SpecError('invalid_input', message);

// Characters Rust's Debug formatting writes as \u{..}: controls, format and private-use
// characters, line/paragraph separators, unassigned code points and combining marks.
const ESCAPED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\p{Grapheme_Extend}]/u;

/** A string as Rust's `{:?}` writes it: double-quoted, `\\ \" \n \r \t \0` escaped, `'` kept. */
export function debugStr(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case '"':
        out += '\\"';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\0':
        out += '\\0';
        break;
      default:
        out += ESCAPED.test(ch) ? `\\u{${ch.codePointAt(0)!.toString(16)}}` : ch;
    }
  }
  return `${out}"`;
}

/** `Vec<String>` Debug: `["a", "b"]`. */
export function debugList(items: readonly string[]): string {
  return `[${items.map(debugStr).join(', ')}]`;
}

/** `BTreeSet<String>` Debug: sorted, deduplicated, `{"a", "b"}`; empty is `{}`. */
export function debugSet(items: readonly string[]): string {
  const sorted = [...new Set(items)].sort(compareUtf8);
  return `{${sorted.map(debugStr).join(', ')}}`;
}

function compareUtf8(a: string, b: string): number {
  // Code-point order equals UTF-8 byte order.
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
