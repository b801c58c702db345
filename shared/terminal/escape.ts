/**
 * What a terminal must never receive raw from a skill, a file name or a source: C0 controls
 * (ESC starts colour and cursor sequences, CR rewrites a line, a newline forges one), DEL, C1
 * controls (U+009B is a one-byte CSI on some terminals), bidi controls and marks that reorder
 * what is shown, line and paragraph separators, zero-width characters and tag characters.
 * A zero-width joiner stays: it builds emoji and cannot hide text.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;
/** The same, minus the layout a renderer writes itself: newline and tab. */
const UNSAFE_IN_TEXT =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const cp = ch.codePointAt(0)!;
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16)}}`;
}

/**
 * The one escaping function for human output: every character above becomes a visible
 * escape (`\e`, `\r`, `\n`, `\x9b`, `\u{202e}`). `line` (the default) is for one value — a
 * name, a path, a description — and escapes newlines and tabs too; `text` is for a block a
 * renderer lays out itself (a report, a diff) and keeps them. JSON and SARIF never use it:
 * they carry the exact text.
 */
export function escapeTerminal(s: string, kind: 'line' | 'text' = 'line'): string {
  return s.replace(kind === 'line' ? UNSAFE : UNSAFE_IN_TEXT, visible);
}
