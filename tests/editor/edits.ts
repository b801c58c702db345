import type { TextEdit } from '../../renderer/src/views/editor/analyze';

/** Apply a quick fix's edits (1-based line/column ranges) to a text, as Monaco would: the last first. */
export function apply(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (line: number, col: number) =>
    lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + col - 1;
  let out = text;
  for (const e of [...edits].sort(
    (a, b) => offset(b.range.startLine, b.range.startColumn) - offset(a.range.startLine, a.range.startColumn),
  ))
    out =
      out.slice(0, offset(e.range.startLine, e.range.startColumn)) +
      e.text +
      out.slice(offset(e.range.endLine, e.range.endColumn));
  return out;
}
