export interface Pattern {
  readonly label: string;
  /** Must carry the `g` flag. */
  readonly re: RegExp;
  /** A test the text must pass before `re` is tried (no `g` flag): most files fail it. */
  readonly needs?: RegExp;
}

/** Judges one match; `text` and `offset` let it read the match's line. */
export type Keep = (match: string, text: string, offset: number) => boolean;

/** The whole line an offset falls on, without its line break. */
export function lineAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end === -1 ? text.length : end);
}
