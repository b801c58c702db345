import { fromMarkdown } from 'mdast-util-from-markdown';

/*
 * The code of a Markdown text, read as a syntax tree (SPEC.md D230): what in it could be a
 * command, with its place in the original text so a finding keeps its file:line. Prose,
 * headings, tables and list text are not code. A line of a paragraph that starts with a
 * command's name (`curl …`, `bash <(…)`) is a command written without a fence, and counts.
 */

export interface CodeRegion {
  /**
   * `fence`: a fenced or indented block; `inline`: a code span; `line`: an unfenced command
   * line (with the lines a `\` or `|` at its end continues it onto); `prose`: a command inside
   * a sentence (`Install with curl … | sh now.`), from its first word to the sentence's end;
   * `frontmatter`: the YAML block's lines.
   */
  readonly kind: 'fence' | 'inline' | 'line' | 'prose' | 'frontmatter';
  /** The fence's info string's first word, lower-cased; '' when it has none. */
  readonly lang: string;
  /** The code's pieces of the original text, one per line: container prefixes and fences left out. */
  readonly segments: readonly (readonly [start: number, end: number])[];
}

/** A line that begins like a command: a download, a shell or interpreter, `eval`, an assignment, `./x`. */
const COMMAND_LINE =
  /^(?:\$[ \t]+)?(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:[A-Za-z_]\w*=\S*|curl|wget|fetch|bash|sh|zsh|dash|ksh|source|eval|exec|python[\d.]*|node|deno|bun|perl|ruby|php|pwsh|powershell|iex|irm|iwr|invoke-(?:expression|webrequest|restmethod)|echo|base64|chmod|\.\/\S*|\.|&|\$\w+[ \t]*=)(?=[\s(]|$)/i;

/** Where a command starts inside a sentence: a download, a shell, `eval`, PowerShell's download or `iex`. */
const COMMAND_IN_PROSE =
  /(?<=^|[\s(:;,])(?:sudo[ \t]+)?(?:curl|wget|bash|sh|zsh|eval|source|iex|irm|iwr|invoke-(?:expression|webrequest|restmethod))[ \t]/i;

/**
 * Words that make a sentence advice against what its code span shows, or a report of an
 * attack: the span is quoted, not asked for. A bare "not" is not one of them ("if it is not
 * installed, run …" still asks).
 */
const NEGATED =
  /\b(?:never|don['’]?t|do not|must not|should not|shouldn['’]t|avoid(?:s|ing)?|instead of|rather than|not recommended|insecure|unsafe|dangerous|malicious|attacker['’]?s?|attacks?)\b/i;

interface Node {
  readonly type: string;
  readonly lang?: string | null;
  readonly value?: string;
  readonly position?: { start: { offset?: number }; end: { offset?: number } };
  readonly children?: readonly Node[];
}

/**
 * The code regions of `text`. `near`: offsets to read around; when given, only the top-level
 * blocks holding one are parsed (D233), else the whole text.
 */
export function markdownRegions(text: string, near?: readonly number[]): CodeRegion[] {
  const front = frontmatterEnd(text);
  // The frontmatter is YAML: blanked for the Markdown reader, read as code of its own.
  const body = front > 0 ? text.slice(0, front).replace(/[^\n]/g, ' ') + text.slice(front) : text;
  const regions: CodeRegion[] = front > 0 ? [frontmatter(text, front)] : [];
  const lines: CodeRegion[] = [];
  const inline: { start: number; end: number; paragraph: readonly [number, number] }[] = [];
  const visit = (node: Node, base: number, paragraph: readonly [number, number] | undefined): void => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    const [s, e] = [base + start, base + end];
    if (node.type === 'code') regions.push(fence(text, node, s, e));
    else if (node.type === 'inlineCode' && paragraph) inline.push({ start: s, end: e, paragraph });
    else if (node.type === 'paragraph' || node.type === 'html') lines.push(...commandLines(text, s, e));
    for (const child of node.children ?? []) visit(child, base, node.type === 'paragraph' ? [s, e] : paragraph);
  };
  const parts =
    near === undefined
      ? [[0, body.length] as const]
      : blocks(body).filter(([s, e]) => near.some((at) => at >= s && at < e));
  for (const [s, e] of parts) visit(fromMarkdown(body.slice(s, e)) as Node, s, undefined);
  const inLine = (at: number) => lines.some((l) => l.segments.some(([s, e]) => at >= s && at < e));
  for (const { start, end, paragraph } of inline) {
    if (inLine(start) || negated(text, paragraph, start, end)) continue;
    const ticks = /^`+/.exec(text.slice(start, end))?.[0].length ?? 1;
    regions.push({ kind: 'inline', lang: '', segments: [[start + ticks, end - ticks]] });
  }
  return [...regions, ...lines];
}

/**
 * The text cut into runs of top-level blocks: a cut, outside a fence, before a line that
 * starts within three spaces of the margin after a blank line, and before an ATX heading, a
 * fence or a list item at the margin. Such a line starts a new block in CommonMark whatever
 * came before (a list item's content is indented, and reads the same without its siblings;
 * a fence is tracked), so each run reads as it does in the whole text (a `-` under a line,
 * a setext heading, then reads as a paragraph: only more candidates). An HTML comment with blank lines inside is the
 * exception: its later part reads as paragraphs, which only adds candidates.
 */
/** A heading, a fence or a list item at the margin: it starts a block even right after text. */
const MARGIN_BLOCK = /^(?:#{1,6}(?:[ \t]|\r?$)|`{3,}|~{3,}|(?:[-*+]|\d{1,9}[.)])(?:[ \t]|\r?$))/;

function blocks(text: string): (readonly [number, number])[] {
  const out: [number, number][] = [];
  let start = 0;
  let fence: string | undefined;
  let blank = false;
  let at = 0;
  for (const line of text.split('\n')) {
    if (fence !== undefined) {
      if (closes(line, fence)) fence = undefined;
    } else {
      if (at > start && ((blank && /^ {0,3}\S/.test(line)) || MARGIN_BLOCK.test(line))) {
        out.push([start, at]);
        start = at;
      }
      fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    }
    blank = /^\s*$/.test(line);
    at += line.length + 1;
  }
  out.push([start, text.length]);
  return out;
}

/** A closing fence for `fence` (its run of backticks or tildes): the same character, at least as many. */
function closes(line: string, fence: string): boolean {
  const m = /^ {0,3}(`+|~+)[ \t]*\r?$/.exec(line);
  return m !== null && m[1]![0] === fence[0] && m[1]!.length >= fence.length;
}

/** Where a leading `---` YAML block ends (past its closing line); 0 when there is none. */
function frontmatterEnd(text: string): number {
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) return 0;
  const close = /^---[ \t]*$/m.exec(text.slice(open[0].length));
  if (!close) return 0;
  const end = open[0].length + close.index + close[0].length;
  return text[end] === '\n' ? end + 1 : end;
}

/** The frontmatter's lines, without its `---` fences: YAML, read as code of another language (D230). */
function frontmatter(text: string, end: number): CodeRegion {
  const open = text.indexOf('\n') + 1;
  const close = text.lastIndexOf('\n', end - 2) + 1;
  return { kind: 'frontmatter', lang: 'yaml', segments: [[open, Math.max(open, close)]] };
}

/** A code block's content lines, each without the container prefix or indent the value drops. */
function fence(text: string, node: Node, start: number, end: number): CodeRegion {
  const raw = text.slice(start, end);
  const fenced = /^[ \t]*(?:`{3,}|~{3,})/.test(raw);
  const value = (node.value ?? '').split('\n');
  const lines: [number, number][] = [];
  let at = start;
  for (const line of raw.split('\n')) {
    lines.push([at, at + line.length]);
    at += line.length + 1;
  }
  const body = fenced ? lines.slice(1, 1 + value.length) : lines;
  const segments = body.map(([s, e], k): [number, number] => {
    const v = value[k] ?? '';
    const rawLine = text.slice(s, e).replace(/\r$/, '');
    const from = rawLine.endsWith(v) ? s + rawLine.length - v.length : s + (/^[\s>]*/.exec(rawLine)?.[0].length ?? 0);
    // A terminal prompt (`$ curl …`) is not part of the command.
    return [from + (/^\$[ \t]+/.exec(text.slice(from, s + rawLine.length))?.[0].length ?? 0), s + rawLine.length];
  });
  const lang = (node.lang ?? '').toLowerCase().replace(/^\{?\.?/, '');
  return { kind: 'fence', lang: /^[\w+#.-]*/.exec(lang)![0], segments };
}

/**
 * The lines of a paragraph (or HTML block) that begin like a command, each with the lines a
 * trailing `\` or `|` continues it onto; and, in the other lines, a command inside a sentence
 * unless the sentence advises against it or reports an attack (D235).
 */
function commandLines(text: string, start: number, end: number): CodeRegion[] {
  const out: CodeRegion[] = [];
  const lines: [number, string][] = [];
  let at = start;
  for (const line of text.slice(start, end).split('\n')) {
    const lead = /^[ \t>]*(?:\$[ \t]+)?/.exec(line)![0].length;
    lines.push([at + lead, line.slice(lead).replace(/\r$/, '')]);
    at += line.length + 1;
  }
  for (let k = 0; k < lines.length; k++) {
    const [from, code] = lines[k]!;
    if (COMMAND_LINE.test(code)) {
      const segments: [number, number][] = [[from, from + code.length]];
      while (/(?:\\|\|)[ \t]*$/.test(lines[k]![1]) && k + 1 < lines.length) {
        const [next, more] = lines[++k]!;
        segments.push([next, next + more.length]);
      }
      out.push({ kind: 'line', lang: '', segments });
      continue;
    }
    // Code spans are read on their own; a command is looked for in the words around them.
    const words = code.replace(/`+[^`]*`+/g, (m) => ' '.repeat(m.length));
    // A table row (GFM) is cells, not a sentence; its code spans are read on their own.
    const m = words.startsWith('|') ? null : COMMAND_IN_PROSE.exec(words);
    if (!m || NEGATED.test(words)) continue;
    const stop = words.slice(m.index).search(/[.!?](?:\s|$)/);
    const length = stop === -1 ? words.length - m.index : stop;
    out.push({ kind: 'prose', lang: '', segments: [[from + m.index, from + m.index + length]] });
  }
  return out;
}

/** The code span's sentence (within its paragraph) says not to do it, or reports an attack. */
function negated(text: string, [from, to]: readonly [number, number], start: number, end: number): boolean {
  const before = text.slice(from, start);
  const after = text.slice(end, to);
  const open = Math.max(before.search(/[.!?]\s(?![\s\S]*[.!?]\s)/) + 1, 0);
  const close = after.search(/[.!?](?:\s|$)/);
  const sentence = before.slice(open) + ' ' + (close === -1 ? after : after.slice(0, close));
  return NEGATED.test(sentence.replace(/`[^`]*`/g, ' '));
}
