import { LITERALS_TABLE } from '../match/literals-table';
import { expressionsOf, lazyMatcher, type TextScan } from '../match/matcher';
import type { Pattern } from './patterns';
import { readCode, type LineShapes, type TextKind } from './remote-exec-code';
import { fetchesNothingRemoteAt } from '../shell/remote';
import type { Hit } from '../types';

/*
 * Download-and-execute shapes, kept as data (one row per spelling) that the one-pass matcher
 * (../match/matcher.ts) reads. A defensive mention still matches: reviewers read it as a
 * command. Pieces shared by several rows are spelled once here.
 */

/** A run of one command line: anything but a newline or a pipe, and `\`-continued lines. */
const CMD = String.raw`(?:[^\n|]|\\\r?\n)`;
/** A download command. */
const DL = String.raw`\b(?:curl|wget|fetch)\b`;
/** Privilege and environment wrappers in front of a command. */
const WRAP = String.raw`(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:env[ \t]+(?:\w+=\S*[ \t]+)*)?`;
/** A shell, by name or path, as a whole word (so `shasum` or a ```` ```bash ```` fence are not shells). */
const SHELL = String.raw`(?:/usr)?(?:/local)?(?:/bin/)?(?:ba|z|da|d|k|c|tc|fi|a)?sh\b`;
/** An interpreter that runs a program it is given. */
const INTERP = String.raw`(?:python(?:\d(?:\.\d+)?)?|node(?:js)?|deno|bun|perl|ruby|php|pwsh|powershell|lua)\b`;
/**
 * An interpreter reading its program from standard input: nothing after it but options that
 * keep stdin as the program. `| python -m json.tool` or `| node script.js` read data, not code.
 */
const INTERP_STDIN = String.raw`${INTERP}(?:[ \t]+(?:-|-s|-u|-E|-W\S*|/dev/stdin))*[ \t]*(?=$|[;&|)'"\x60])`;
/** What an interpreter may call to fetch code in the same expression. */
const FETCH_CALL = String.raw`(?:\b(?:urlopen|urlretrieve|requests\.get|httpx\.get|fetch|https?\.get|axios\.get|URI\.open|file_get_contents)\s*\(|\b(?:Net::HTTP|LWP::Simple|HTTP::Tiny)\b|\b(?:get|open)[ \t]*\(?[ \t]*["']https?:)`;
/** What runs a string as code. */
const EVAL = String.raw`\b(?:exec|eval|new\s+Function|(?:vm\.)?runIn(?:This|New)Context|instance_eval|module_eval|class_eval)\b`;
const PS_DOWNLOAD = String.raw`\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|new-object\s+(?:system\.)?net\.webclient|downloadstring|downloaddata|start-bitstransfer)\b`;

const NEEDS_DL = /curl|wget|fetch/i;
const NEEDS_FETCH_CALL = new RegExp(FETCH_CALL);
const NEEDS_IEX = /iex|invoke-expression|scriptblock/i;

export const REMOTE_EXEC: readonly Pattern[] = [
  { label: 'curl|sh', needs: NEEDS_DL, re: new RegExp(String.raw`${DL}${CMD}*\|\s*${WRAP}${SHELL}`, 'gim') },
  {
    label: 'curl|interpreter',
    needs: NEEDS_DL,
    re: new RegExp(String.raw`${DL}${CMD}*\|\s*${WRAP}${INTERP_STDIN}`, 'gim'),
  },
  {
    label: 'eval $(curl …)',
    needs: NEEDS_DL,
    re: new RegExp(String.raw`\b(?:eval|exec)\s+["'\x60]?(?:\$\(|\x60)\s*${DL}`, 'gi'),
  },
  {
    label: 'sh -c "$(curl …)"',
    needs: NEEDS_DL,
    re: new RegExp(
      String.raw`(?<![\w.-])(?:${SHELL}|${INTERP})[ \t]+(?:-\S+[ \t]+)*-[ceE][ \t]+["']?(?:\$\(|\x60)\s*${DL}`,
      'gi',
    ),
  },
  {
    label: 'process substitution <(curl …)',
    needs: NEEDS_DL,
    re: new RegExp(
      String.raw`(?:(?<![\w.-])(?:${SHELL}|${INTERP}|source)|(?:^|[\s;&|(])\.)[ \t]+(?:-\S+[ \t]+)*<\(\s*${DL}`,
      'gim',
    ),
  },
  {
    label: 'curl|source',
    needs: NEEDS_DL,
    re: new RegExp(String.raw`${DL}${CMD}*\|\s*(?:source|\.)(?=[ \t]|$)`, 'gim'),
  },
  {
    label: 'base64 -d|sh',
    needs: /base64/i,
    re: new RegExp(
      String.raw`\bbase64\b${CMD}*(?:-d|--decode|-D)\b${CMD}*\|\s*${WRAP}(?:${SHELL}|${INTERP_STDIN})`,
      'gim',
    ),
  },
  {
    label: 'decoded payload → eval',
    needs: /base64|b64decode/i,
    re: new RegExp(
      String.raw`\b(?:eval|exec)\s*\(?[ \t]*["']?\$\([^)\n]*\bbase64[ \t]+(?:-d|--decode|-D)\b|(?<![\w.-])${SHELL}[ \t]+-c[ \t]+["']?\$\([^)\n]*\bbase64[ \t]+(?:-d|--decode|-D)\b|\b(?:exec|eval)\s*\([^\n]{0,80}?\bb64decode\s*\(`,
      'gi',
    ),
  },
  {
    label: 'powershell -EncodedCommand',
    needs: /powershell|pwsh/i,
    re: /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*?\s-e(?:c|nc|ncodedcommand)?\s+[A-Za-z0-9+/]{16,}={0,2}/gi,
  },
  {
    label: 'powershell iex(download)',
    needs: NEEDS_IEX,
    re: new RegExp(
      String.raw`\b(?:iex|invoke-expression)\b[^\n]*${PS_DOWNLOAD}|\[scriptblock\]::create\b[^\n]*${PS_DOWNLOAD}|\b(?:iex|invoke-expression)\b[^\n]*\bfrombase64string\b`,
      'gi',
    ),
  },
  {
    label: 'powershell download|iex',
    needs: NEEDS_IEX,
    re: /\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)\b[^\n|]*\|\s*(?:iex|invoke-expression)\b/gi,
  },
  {
    label: 'powershell download → iex',
    needs: /iex|invoke-expression/i,
    re: /\$(\w+)\s*=\s*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?\s*new-object\s+(?:system\.)?net\.webclient\s*\)?\s*\.downloadstring)\b[\s\S]{0,400}?\b(?:iex|invoke-expression)\b\s*\(?\s*\$\1\b/gi,
  },
  {
    label: 'download to a variable → eval',
    needs: NEEDS_DL,
    re: new RegExp(
      String.raw`\b(\w+)=["']?(?:\$\(|\x60)\s*${DL}[\s\S]{0,400}?(?:\b(?:eval|source)[ \t]+["']?\$\{?\1\b|(?<![\w.-])${SHELL}[ \t]+-c[ \t]+["']?\$\{?\1\b|\$\{?\1\}?["']?[ \t]*\|[ \t]*${WRAP}${SHELL})`,
      'gi',
    ),
  },
  {
    label: 'interpreter runs fetched code',
    needs: NEEDS_FETCH_CALL,
    // The fetch is inside the evaluating call's argument (`exec(urlopen(…).read())`, Perl's
    // `eval get(…)`): `docker exec box python3 -c "…urlopen(u).status"` evaluates nothing fetched.
    re: new RegExp(String.raw`${EVAL}(?:[ \t]*\(|[ \t]+(?=${FETCH_CALL}))[^)\n]{0,200}?${FETCH_CALL}`, 'gi'),
  },
  {
    label: 'fetched code → exec',
    needs: NEEDS_FETCH_CALL,
    re: new RegExp(String.raw`\b(\w+)\s*=[^\n=]*${FETCH_CALL}[\s\S]{0,400}?${EVAL}\s*\(\s*\1\b`, 'gi'),
  },
  {
    label: 'remote import',
    needs: /https?:\/\//i,
    re: /\bimport\s*\(\s*["'`]https?:\/\/|\b(?:include|require)(?:_once)?\s*\(?\s*["']https?:\/\/|\bdeno\s+run\b[^\n]*\shttps?:\/\//gi,
  },
  {
    label: 'remote archive → extract',
    needs: NEEDS_DL,
    re: new RegExp(String.raw`${DL}${CMD}*\|\s*${WRAP}(?:tar|unzip|bsdtar)\b`, 'gim'),
  },
];

/** Every shape names one of these; one pass for them spares the rest on most files. */
const TOOLS =
  /curl|wget|fetch|base64|b64decode|iex|invoke-|iwr|irm|urlopen|urlretrieve|requests\.get|https?[.:]|LWP|HTTP::|URI\.open|file_get_contents|powershell|pwsh|outfile|downloadfile/i;

/**
 * `scan`: the text's one-pass scan, when the caller already has one. `kind`: how to read the
 * text (./remote-exec-code.ts); 'other' applies the line shapes to all of it. The line shapes
 * gate every kind: only a text where one matches is parsed (D233).
 */
export function findRemoteExec(text: string, scan: TextScan = own().scan(text), kind: TextKind = 'other'): Hit[] {
  // The gate is every line shape, reserved hosts included: a text is parsed wherever one matches.
  const hits = rawLineShapes(text, scan);
  if (hits.length === 0) return [];
  return kind === 'other' ? runsSomething(hits, text, text) : readCode(text, kind, SHAPES).hits;
}

/** Every pattern and the download → run flow over one text. */
function rawLineShapes(text: string, scan: TextScan = own().scan(text)): Hit[] {
  if (!scan.test(TOOLS)) return [];
  return [...scan.findAll(REMOTE_EXEC), ...downloadThenRun([{ path: '', text, scan }]).map((f) => f.hit)];
}

/**
 * What follows `b64decode(` when there is nothing to decode (SPEC.md D256): the call closes, the
 * text ends, the argument is Python's `...` or an ellipsis, or it is one string of dots, or one
 * holding `…` (Python's b64decode refuses a non-ASCII string, and a bytes literal cannot hold
 * one). Each must close the call, so nothing can be added to it (`'…'.strip('…') + 'ZXZpbA=='`).
 * A string of base64 with `...` after it is not here: b64decode drops what is not base64 and
 * runs the rest.
 */
const NO_PAYLOAD = /^\s*(?:(?:\.\.\.|…)?\s*(?:\)|$)|(["'])(?:\.+|[^"'\n]*…[^"'\n]*)\1\s*(?:\)|$))/;

/**
 * The hits less those that run nothing remote: every fetch on their lines reads reserved hosts
 * (D246) or no fetchable operand (D256), or a decoded payload with nothing to decode. `scope` is
 * read for changes of trust.
 */
function runsSomething(hits: readonly Hit[], text: string, scope: string): Hit[] {
  return hits.filter(
    (h) =>
      !fetchesNothingRemoteAt(text, h.offset, h.offset + h.length, scope) &&
      !(
        h.label === 'decoded payload → eval' &&
        h.match.endsWith('(') &&
        NO_PAYLOAD.test(text.slice(h.offset + h.length))
      ),
  );
}

/** One text of a skill, by path, with its one-pass scan when the caller has one. */
export interface FlowDocument {
  readonly path: string;
  readonly text: string;
  readonly scan?: TextScan;
  /** How to read it: a download or a run counts only in its code (default 'other': all of it). */
  readonly kind?: TextKind;
}

export interface FlowFinding {
  /** The document where the downloaded file is run. */
  readonly path: string;
  readonly hit: Hit;
  /** The document that downloads it. */
  readonly from: string;
}

/*
 * Download to a file, then run it: the file may be fetched in one file of the skill and run
 * in another (a README that fetches, a script that runs), so the downloads of every document
 * are collected first and every document is then searched for a run of one of them.
 */

/** Where a download writes (group `f`), or the URL whose last segment names it (group `u`). */
export const DOWNLOAD_TO: readonly RegExp[] = [
  new RegExp(String.raw`\bcurl\b${CMD}*?\s(?:-[a-zA-Z]*o[ \t]*|--output(?:[ \t]+|=))["']?(?<f>[^\s"';&|>)]+)`, 'gi'),
  new RegExp(String.raw`\bcurl\b${CMD}*?\s-[a-zA-Z]*O\b${CMD}*?(?<u>https?://[^\s"';&|)]+)`, 'g'),
  new RegExp(String.raw`\bcurl\b${CMD}*?(?<u>https?://[^\s"';&|)]+)${CMD}*?\s-[a-zA-Z]*O\b`, 'g'),
  new RegExp(
    String.raw`\bwget\b${CMD}*?\s(?:-[a-zA-Z]*O[ \t]*|--output-document(?:[ \t]+|=))["']?(?<f>[^\s"';&|>)]+)`,
    'g',
  ),
  new RegExp(
    String.raw`\bwget\b(?:[ \t]+-[a-zA-Z-]+(?:=\S+)?)*[ \t]+["']?(?<u>https?://[^\s"';&|)]+)["']?[ \t]*(?=$|[;&]|&&)`,
    'gm',
  ),
  new RegExp(String.raw`${DL}[^\n|]*?(?<![\d&=-])>[ \t]*["']?(?<f>[^\s"';&|)]+)`, 'gi'),
  // PowerShell's parameter; GNU-style `--outfile` of other programs (a converter's output) is no download.
  /(?<![\w-])-OutFile\s+["']?(?<f>[^\s"';|)]+)/gi,
  /\.DownloadFile\(\s*["'][^"']+["']\s*,\s*["'](?<f>[^"']+)["']/gi,
  /\burlretrieve\(\s*[^,\n]+,\s*f?["'](?<f>[^"']+)["']/g,
  /^[ \t]*ADD[ \t]+(?:--\S+[ \t]+)*["']?https?:\/\/\S+[ \t]+["']?(?<f>[^\s"']+)/gm,
];

/** Files a download writes that run nothing: a stream, or nowhere. */
const NOT_A_FILE = /^(?:-|\/dev\/.*|&\d)$/;

interface Download {
  readonly path: string;
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** The downloads of one text; found once per scan, as a text is read for itself and with its skill's others. */
function downloadsIn(doc: FlowDocument, scan: TextScan): Download[] {
  const found = scan.memo(DOWNLOAD_TO, () => {
    const out: Omit<Download, 'path'>[] = [];
    for (const re of DOWNLOAD_TO) {
      scan.matches(re, (m) => {
        const raw = m.groups?.f ?? (m.groups?.u ?? '').replace(/[?#].*$/, '').replace(/\/+$/, '');
        const name = raw.slice(raw.lastIndexOf('/') + 1);
        if (name !== '' && !NOT_A_FILE.test(raw) && !name.startsWith('http'))
          out.push({ name, start: m.index, end: m.index + m[0].length });
        return true;
      });
    }
    return out;
  });
  return found.map((d) => ({ path: doc.path, ...d }));
}

/**
 * A run of a file: given to a shell, `source`, `.`, an interpreter or `chmod +x` on the same
 * line (group `a`), or invoked by a path (`./x`, `/tmp/x`) where a command starts (group `p`).
 * Whether it is a downloaded file is decided by its last path segment.
 */
const RUNNER = String.raw`(?:${SHELL}|${INTERP}|source|chmod[ \t]+(?:-\S+[ \t]+)*(?:[ugoa]*\+[rw]*x[rwx]*|[0-7]*[1357][0-7]*))`;
const END = String.raw`["']?(?=$|[\s;&|)"'\x60])`;
const COMMAND_START = String.raw`(?:^[ \t]*(?:\$[ \t]+|RUN[ \t]+)?|[;&|(\x60][ \t]*|\b(?:then|do|exec|sudo|nohup|time)[ \t]+)`;
const RUN = new RegExp(
  String.raw`(?:(?<![\w.\x60-])${RUNNER}|(?:^|[\s;&|(])\.)[ \t]+(?:-\S+[ \t]+)*["']?(?<a>[^\s"';&|]+?)${END}` +
    String.raw`|${COMMAND_START}["']?(?<p>(?:\.{1,2}|~|\$\{?\w+\}?)?(?:/[^\s"';&|]*)?/[^\s"';&|/]+?)${END}`,
  'gm',
);

/**
 * `text` with each `\`-continued line joined to the next (the backslash and line break become
 * spaces, so places keep their offsets): a word on a continued line is an argument of the
 * command above (`llama-quantize \` then `"$DIR/model.gguf"`), not a command of its own, while
 * what follows `&& \` or `sudo \` still starts one. A line where a comment may begin (`#` at
 * its start or after a blank) is left as it is: a comment's backslash continues nothing, and
 * the next line then starts a command (SPEC.md D249).
 */
function joinContinued(text: string): string {
  return text.replace(/^([^\n]*)\\(\r?\n)/gm, (all: string, line: string) =>
    // `\\` at the end is a backslash written out, which continues nothing.
    /(?:^|[ \t])#/.test(line) || /\\*$/.exec(line)![0].length % 2 === 1
      ? all
      : line + ' '.repeat(all.length - line.length),
  );
}

/** Every download form names one of these. */
const DOWNLOADS = /curl|wget|outfile|downloadfile|urlretrieve|\bADD\s/i;

export function downloadThenRun(given: readonly FlowDocument[]): FlowFinding[] {
  // A document read by kind is searched in its code view (read only once it can matter).
  const codeOf = (d: FlowDocument): FlowDocument =>
    d.kind === undefined || d.kind === 'other' ? d : { path: d.path, text: readCode(d.text, d.kind, SHAPES).view };
  const downloads = given.flatMap((d) => {
    const scan = d.scan ?? own().scan(d.text);
    if (!scan.test(DOWNLOADS)) return [];
    // The code view only leaves things out: a text with no download at all is not read further.
    const all = downloadsIn(d, scan);
    const code = all.length === 0 ? d : codeOf(d);
    const found = code === d ? all : downloadsIn(code, own().scan(code.text));
    // A file fetched from a reserved host, or from nowhere, holds nobody's code (D246, D256).
    return found.filter((x) => !fetchesNothingRemoteAt(code.text, x.start, x.end, d.text));
  });
  if (downloads.length === 0) return [];
  const names = [...new Set(downloads.map((d) => d.name))];
  const findings: FlowFinding[] = [];
  for (const found of given) {
    // A run counts only when its last path segment is a downloaded name, so a text that
    // spells none of them holds no finding.
    if (!names.some((name) => found.text.includes(name))) continue;
    const doc = codeOf(found);
    const text = joinContinued(doc.text);
    RUN.lastIndex = 0;
    for (let m = RUN.exec(text); m; m = RUN.exec(text)) {
      const target = m.groups?.a ?? m.groups?.p ?? '';
      const name = target.slice(target.lastIndexOf('/') + 1);
      const start = m.index;
      const end = start + m[0].length;
      const sources = downloads.filter((d) => d.name === name);
      // The download names its own output; that mention is not a run.
      if (sources.length === 0 || sources.some((s) => s.path === doc.path && start < s.end && end > s.start)) continue;
      const from = sources.find((s) => s.path === doc.path) ?? sources[0]!;
      findings.push({
        path: doc.path,
        from: from.path,
        hit: { label: 'download → run', offset: start, length: m[0].length, match: doc.text.slice(start, end) },
      });
    }
  }
  return findings;
}

/** Where a line shape, a download or a run matches in a text. */
function places(text: string): number[] {
  const scan = own().scan(text);
  const at = rawLineShapes(text, scan).flatMap((h) => [h.offset, h.offset + h.length - 1]);
  for (const re of [...DOWNLOAD_TO, RUN])
    scan.matches(re, (m) => {
      at.push(m.index);
      return true;
    });
  return at;
}

const SHAPES: LineShapes = { hits: (text, scope) => runsSomething(rawLineShapes(text), text, scope), places };

export const REMOTE_EXEC_EXPRESSIONS: readonly RegExp[] = [
  TOOLS,
  DOWNLOADS,
  ...expressionsOf(REMOTE_EXEC),
  ...DOWNLOAD_TO,
];
const own = lazyMatcher(() => REMOTE_EXEC_EXPRESSIONS, LITERALS_TABLE);
