/** Ranges over a file's text, and the edits quick fixes are made of. Pure. */
import { LineIndex } from '../../../../../shared/ksf/text';
import type { Range, TextEdit } from './types';

/** Offsets to Monaco ranges, over the same line index the engine uses. */
export class Lines extends LineIndex {
  range(offset: number, length: number): Range {
    const a = this.position(offset);
    const b = this.position(offset + length);
    return { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column };
  }
}

export function lineOf(text: string, line: number): string | undefined {
  return text.split(/\r?\n/)[line - 1];
}

/** The line's text without its indent (at least one column). */
export function lineRange(text: string, line: number): Range {
  const l = lineOf(text, line) ?? '';
  const indent = l.length - l.trimStart().length;
  return { startLine: line, startColumn: indent + 1, endLine: line, endColumn: Math.max(l.length + 1, indent + 2) };
}

/** The token at a parser's line/column (to the next space or the end of the line). */
export function tokenAt(text: string, line: number, column: number): Range {
  const l = lineOf(text, line);
  if (l === undefined) return lineRange(text, Math.max(1, text.split(/\r?\n/).length));
  const rest = l.slice(column - 1);
  const len = /^\S+/.exec(rest)?.[0].length ?? 0;
  if (len === 0)
    return { startLine: line, startColumn: Math.max(1, column - 1), endLine: line, endColumn: Math.max(column, 2) };
  return { startLine: line, startColumn: column, endLine: line, endColumn: column + len };
}

/** Delete lines `from`…`to` whole (their line breaks too). */
export function removeLines(text: string, from: number, to = from): TextEdit {
  const lines = text.split(/\r?\n/);
  if (to < lines.length) return { range: { startLine: from, startColumn: 1, endLine: to + 1, endColumn: 1 }, text: '' };
  // The last line: take the break before it instead.
  const prev = from > 1 ? lines[from - 2]!.length + 1 : 1;
  return {
    range: { startLine: Math.max(1, from - 1), startColumn: prev, endLine: to, endColumn: lines[to - 1]!.length + 1 },
    text: '',
  };
}

/** Insert `lines` as whole lines after line `after` (0: at the top). */
export function insertLines(text: string, after: number, lines: readonly string[]): TextEdit {
  const all = text.split(/\r?\n/);
  const body = lines.join('\n');
  if (after === 0) return { range: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 }, text: `${body}\n` };
  const at = Math.min(after, all.length);
  const end = all[at - 1]!.length + 1;
  return { range: { startLine: at, startColumn: end, endLine: at, endColumn: end }, text: `\n${body}` };
}
