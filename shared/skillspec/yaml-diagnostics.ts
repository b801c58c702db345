/**
 * Where a YAML parse error is (line and column, as the reference reports them) and what
 * to suggest for the mistakes authors make most; kept apart from yaml.ts so the reader
 * there only decides what is wrong, not how it is explained.
 */
import type { SourcePosition } from './errors';

export function positionOf(text: string, offset: number): SourcePosition {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: [...text.slice(start, Math.max(start, offset))].length + 1 };
}

const ARTIFACT_HINT =
  'artifact `produced_by` and `consumed_by` entries name executables only: `kind: command`, `kind: code` or `kind: recipe`. ' +
  'A route or rule cannot be one; link route-level use through route checks, recipe steps, or the used_by lists of imports and resources.';

export function parseHint(text: string, message: string, position: SourcePosition | undefined): string | undefined {
  if (
    message.includes('artifacts.') &&
    (message.includes('.consumed_by') || message.includes('.produced_by')) &&
    message.includes('unknown variant') &&
    message.includes('expected one of `command`, `code`, `recipe`')
  ) {
    return ARTIFACT_HINT;
  }
  if (!message.includes('mapping values are not allowed in this context')) return undefined;
  const line = position ? text.split('\n')[position.line - 1]?.trim() : undefined;
  if (line !== undefined && position && looksLikeColonInPlainValue(line)) {
    return `line ${position.line} reads as a plain string that contains \`: \`; quote it or use a block scalar, e.g. \`question: "...: ..."\`. Suspect line: ${line}`;
  }
  return 'a colon followed by a space inside an unquoted string starts a new mapping in YAML; quote string values that contain `: ` (questions, descriptions, notes).';
}

function looksLikeColonInPlainValue(line: string): boolean {
  const i = line.indexOf(':');
  if (i === -1) return false;
  const value = line.slice(i + 1).trimStart();
  return !/^["'|>]/.test(value) && value.includes(': ');
}
