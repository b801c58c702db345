import { markdownRegions, type CodeRegion } from '../markdown/regions';
import { ParseError } from '../shell/parse';
import { shellRemoteExec } from '../shell/remote';
import type { Hit } from '../types';

/*
 * Which text of a file is code the agent could run, and what the remote-exec check finds in
 * it (SPEC.md D230–D233). The line shapes of ./remote-exec.ts stay the gate: a text where
 * none matches holds no finding and is not parsed. Where one matches, the file is read by
 * its kind: Markdown as a syntax tree, whose code alone is a candidate; a shell script by a
 * shell parser, which decides the pipelines; HTML and templates for the code-evaluation
 * shapes only. Other files (TOML, YAML, Dockerfiles, Python, …) keep the line shapes.
 */

export type TextKind = 'markdown' | 'shell' | 'markup' | 'other';

export function textKind(path: string, text: string): TextKind {
  if (/\.(?:md|markdown|mdx|mdown|mkd)$/i.test(path)) return 'markdown';
  if (/\.(?:sh|bash|zsh|ksh|dash)$/i.test(path) || /^#![^\n]*\b(?:ba|z|k|da)?sh\b/.test(text)) return 'shell';
  if (
    /\.(?:html?|x?html|tmpl|tpl|gotmpl|hbs|handlebars|mustache|liquid|njk|jinja2?|j2|vue|svelte|erb|ejs|twig|astro)$/i.test(
      path,
    )
  )
    return 'markup';
  return 'other';
}

/** What a text holds once only its code is read: the findings, and the text with everything else blanked. */
export interface CodeReading {
  readonly hits: Hit[];
  /** The same length as the text: code kept, prose and data spaces, line breaks kept (so places map 1:1). */
  readonly view: string;
}

/** The line shapes of ./remote-exec.ts, given by it (it imports this module). */
export interface LineShapes {
  /**
   * Every pattern and the download → run flow over a text, less fetches of reserved hosts only
   * unless `scope` (the file's code) changes trust (D246).
   */
  readonly hits: (text: string, scope: string) => Hit[];
  /** Where a pattern, a download or a run of a file matches: the places worth parsing around. */
  readonly places: (text: string) => number[];
}

/** Decided by the shell parser where it reads the code; the line shapes give them only where it cannot. */
const PIPELINE_LABELS = new Set([
  'curl|sh',
  'curl|interpreter',
  'eval $(curl …)',
  'sh -c "$(curl …)"',
  'process substitution <(curl …)',
  'curl|source',
  'base64 -d|sh',
  'remote archive → extract',
  'download to a variable → eval',
]);
/** A program evaluating what it fetched: the shapes that hold in any language's code. */
const EVAL_LABELS = new Set(['interpreter runs fetched code', 'fetched code → exec']);

const SHELL_LANGS =
  /^(?:|sh|bash|zsh|ksh|dash|fish|shell|shellsession|console|terminal|command|cmd|bat|batch|powershell|ps1|ps|pwsh|posh|text|txt|plaintext|plain)$/;
const MARKUP_LANGS =
  /^(?:html?|xhtml|xml|svg|vue|svelte|hbs|handlebars|mustache|liquid|jinja2?|j2|njk|nunjucks|go-html-template|gotmpl|tmpl|erb|ejs|twig|astro)$/;
/** Code for a web page: a remote `import()` there is the page loading a module, not the agent running one. */
const WEB_LANGS = /^(?:js|javascript|jsx|ts|typescript|tsx|mjs|cjs|es6)$/;

const CACHE_SIZE = 128;
const cache = new Map<string, CodeReading>();

/** The reading of `text` as `kind`, cached by kind and content: an editor re-lints the same files often. */
export function readCode(text: string, kind: Exclude<TextKind, 'other'>, lineShapes: LineShapes): CodeReading {
  const key = `${kind}\0${text}`;
  let reading = cache.get(key);
  if (reading) {
    cache.delete(key);
  } else {
    reading =
      kind === 'markdown'
        ? markdown(text, lineShapes)
        : kind === 'shell'
          ? shell(text, lineShapes)
          : markup(text, lineShapes);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, reading);
  return reading;
}

function shell(text: string, { hits: lineShapes }: LineShapes): CodeReading {
  try {
    const verdict = shellRemoteExec(text);
    const view = blank(text, verdict.data);
    const hits = lineShapes(view, text).filter((h) => !PIPELINE_LABELS.has(h.label));
    return { hits: dedupe([...verdict.hits, ...hits]), view };
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    // Not valid shell: every line shape, as before the parser (D232).
    return { hits: lineShapes(text, text), view: text };
  }
}

function markup(text: string, { hits: lineShapes }: LineShapes): CodeReading {
  return {
    hits: lineShapes(text, text).filter((h) => EVAL_LABELS.has(h.label)),
    view: blank(text, [[0, text.length]]),
  };
}

type Reading = 'parsed' | 'fallback' | 'markup' | 'web' | 'code';

function markdown(text: string, shapes: LineShapes): CodeReading {
  const lineShapes = shapes.hits;
  const all = markdownRegions(text, shapes.places(text));
  // A command inside a sentence is read apart: its pipelines count, but it is no download or
  // run for the download → run flow (D230).
  const prose = all.filter((r) => r.kind === 'prose');
  const regions = all.filter((r) => r.kind !== 'prose');
  let view = keep(text, regions);
  // A change of trust anywhere in the file counts (D246), in a block the line shapes did not open too.
  const scope = text;
  const proseHits =
    prose.length === 0 ? [] : lineShapes(keep(text, prose), scope).filter((h) => h.label !== 'download → run');
  const parserHits: Hit[] = [];
  const data: (readonly [number, number])[] = [];
  const read = regions.map((r): { region: CodeRegion; start: number; end: number; how: Reading } => {
    const start = r.segments[0]?.[0] ?? 0;
    const end = r.segments.at(-1)?.[1] ?? 0;
    if (r.kind === 'fence' && MARKUP_LANGS.test(r.lang)) return { region: r, start, end, how: 'markup' };
    if (!SHELL_LANGS.test(r.lang)) return { region: r, start, end, how: WEB_LANGS.test(r.lang) ? 'web' : 'code' };
    try {
      const verdict = shellRemoteExec(view, start, end, scope);
      parserHits.push(...verdict.hits);
      data.push(...verdict.data);
      return { region: r, start, end, how: 'parsed' };
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      return { region: r, start, end, how: 'fallback' };
    }
  });
  view = blank(view, data);
  const kept = lineShapes(view, scope).filter((h) => {
    const r = read.find((x) => h.offset >= x.start && h.offset < x.end);
    if (!r) return false;
    if (h.label === 'download → run') return r.how !== 'markup';
    if (h.offset + h.length > r.end) return false;
    if (r.how === 'parsed') return !PIPELINE_LABELS.has(h.label);
    if (r.how === 'markup') return EVAL_LABELS.has(h.label);
    if (r.how === 'web') return h.label !== 'remote import';
    return true;
  });
  const markupAt = read.filter((r) => r.how === 'markup').map((r) => [r.start, r.end] as const);
  return { hits: dedupe([...parserHits, ...kept, ...proseHits]), view: blank(view, markupAt) };
}

/** `text` with the given places turned to spaces, line breaks kept. */
function blank(text: string, places: readonly (readonly [number, number])[]): string {
  if (places.length === 0) return text;
  const sorted = [...places].sort((x, y) => x[0] - y[0]);
  let out = '';
  let at = 0;
  for (const [s, e] of sorted) {
    if (e <= at) continue;
    const from = Math.max(s, at);
    out += text.slice(at, from) + spaces(text.slice(from, e));
    at = e;
  }
  return out + text.slice(at);
}

/** `text` with only the regions' segments kept, the rest spaces; a code span's line breaks too. */
function keep(text: string, regions: readonly CodeRegion[]): string {
  const pieces = regions
    .flatMap((r) => r.segments.map(([s, e]) => [s, e, r.kind === 'inline'] as const))
    .sort((x, y) => x[0] - y[0]);
  let out = '';
  let at = 0;
  for (const [s, e, inline] of pieces) {
    if (e <= at) continue;
    const from = Math.max(s, at);
    const code = text.slice(from, e);
    out += spaces(text.slice(at, from)) + (inline ? code.replace(/\r?\n/g, (m) => ' '.repeat(m.length)) : code);
    at = e;
  }
  return out + spaces(text.slice(at));
}

function spaces(text: string): string {
  return text.replace(/[^\r\n]+/g, (m) => ' '.repeat(m.length));
}

/** One hit per label and place: the parser and a line shape may both see one command. */
function dedupe(hits: readonly Hit[]): Hit[] {
  const out: Hit[] = [];
  for (const h of hits)
    if (!out.some((o) => o.label === h.label && h.offset < o.offset + o.length && o.offset < h.offset + h.length))
      out.push(h);
  return out.sort((a, b) => a.offset - b.offset);
}
