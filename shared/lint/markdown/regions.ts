import { fromMarkdown } from 'mdast-util-from-markdown';

/*
 * The code of a Markdown text, read as a syntax tree (SPEC.md D230): what in it could be a
 * command, with its place in the original text so a finding keeps its file:line. Prose,
 * headings, tables and list text are not code. A line of a paragraph that starts with a
 * command's name (`curl …`, `bash <(…)`) is a command written without a fence, and counts.
 */

export interface CodeRegion {
  /** `fence`: a fenced or indented block; `inline`: a code span; `line`: an unfenced command line. */
  readonly kind: 'fence' | 'inline' | 'line';
  /** The fence's info string's first word, lower-cased; '' when it has none. */
  readonly lang: string;
  /** The code's pieces of the original text, one per line: container prefixes and fences left out. */
  readonly segments: readonly (readonly [start: number, end: number])[];
}

/** A line that begins like a command: a download, a shell or interpreter, `eval`, an assignment, `./x`. */
const COMMAND_LINE =
  /^(?:\$[ \t]+)?(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:[A-Za-z_]\w*=\S*|curl|wget|fetch|bash|sh|zsh|dash|ksh|source|eval|exec|python[\d.]*|node|deno|bun|perl|ruby|php|pwsh|powershell|iex|irm|iwr|invoke-(?:expression|webrequest|restmethod)|echo|base64|chmod|\.\/\S*|\.|&|\$\w+[ \t]*=)(?=[\s(]|$)/i;

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

export function markdownRegions(text: string): CodeRegion[] {
  const front = frontmatterEnd(text);
  // The frontmatter is YAML: blanked for the Markdown reader, its values read as lines below.
  const body = front > 0 ? text.slice(0, front).replace(/[^\n]/g, ' ') + text.slice(front) : text;
  const regions: CodeRegion[] = front > 0 ? frontmatterLines(text, front) : [];
  const lines: CodeRegion[] = [];
  const inline: { node: Node; paragraph: Node }[] = [];
  const visit = (node: Node, paragraph: Node | undefined): void => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    if (node.type === 'code') regions.push(fence(text, node, start, end));
    else if (node.type === 'inlineCode' && paragraph) inline.push({ node, paragraph });
    else if (node.type === 'paragraph' || node.type === 'html') lines.push(...commandLines(text, start, end));
    for (const child of node.children ?? []) visit(child, node.type === 'paragraph' ? node : paragraph);
  };
  visit(fromMarkdown(body) as Node, undefined);
  const inLine = (at: number) => lines.some((l) => l.segments.some(([s, e]) => at >= s && at < e));
  for (const { node, paragraph } of inline) {
    const start = node.position!.start.offset!;
    const end = node.position!.end.offset!;
    if (inLine(start) || negated(text, paragraph, start, end)) continue;
    const ticks = /^`+/.exec(text.slice(start, end))?.[0].length ?? 1;
    regions.push({ kind: 'inline', lang: '', segments: [[start + ticks, end - ticks]] });
  }
  return [...regions, ...lines];
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

/** A frontmatter value that reads as a command (`description: curl … | sh`), quotes left out. */
function frontmatterLines(text: string, end: number): CodeRegion[] {
  const out: CodeRegion[] = [];
  const re = /^[ \t-]*[\w-]+:[ \t]*(["']?)(.*?)\1[ \t]*\r?$/gm;
  const head = text.slice(0, end);
  for (let m = re.exec(head); m; m = re.exec(head)) {
    const value = m[2]!;
    if (!COMMAND_LINE.test(value)) continue;
    const start = m.index + m[0].indexOf(value, m[0].indexOf(':') + 1);
    out.push({ kind: 'line', lang: '', segments: [[start, start + value.length]] });
  }
  return out;
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

/** The lines of a paragraph (or HTML block) that begin like a command. */
function commandLines(text: string, start: number, end: number): CodeRegion[] {
  const out: CodeRegion[] = [];
  let at = start;
  for (const line of text.slice(start, end).split('\n')) {
    const lead = /^[ \t>]*(?:\$[ \t]+)?/.exec(line)![0].length;
    const code = line.slice(lead).replace(/\r$/, '');
    if (COMMAND_LINE.test(code)) out.push({ kind: 'line', lang: '', segments: [[at + lead, at + lead + code.length]] });
    at += line.length + 1;
  }
  return out;
}

/** The code span's sentence (within its paragraph) says not to do it, or reports an attack. */
function negated(text: string, paragraph: Node, start: number, end: number): boolean {
  const from = paragraph.position!.start.offset!;
  const to = paragraph.position!.end.offset!;
  const before = text.slice(from, start);
  const after = text.slice(end, to);
  const open = Math.max(before.search(/[.!?]\s(?![\s\S]*[.!?]\s)/) + 1, 0);
  const close = after.search(/[.!?](?:\s|$)/);
  const sentence = before.slice(open) + ' ' + (close === -1 ? after : after.slice(0, close));
  return NEGATED.test(sentence.replace(/`[^`]*`/g, ' '));
}
