import type { Hit } from '../types';
import { parseShell, ParseError, type Command, type Script, type Word } from './parse';
import { changesTrust, fetchesNothingRemote } from './reserved-host';

/*
 * Remote execution decided from a shell syntax tree (SPEC.md D231). A finding is a command
 * that runs what a download produced: a pipeline from a fetch into an interpreter reading
 * standard input, an interpreter or `eval` given a fetch's output as its program, or a
 * process substitution of a fetch given to one. Text that never runs — comments, the
 * arguments of commands that only print or search (`echo`, `grep`), here-documents given to
 * anything but an interpreter — is reported back as data so the line shapes skip it too.
 * A fetch of reserved example hosts only (./reserved-host.ts, D246), or of no fetchable
 * operand at all (`curl | sh`, `curl ... | sh`, `curl [url] | sh`: D256), fetches nothing remote.
 */

export interface ShellVerdict {
  readonly hits: Hit[];
  /** Places that are data, not code: comments, printed or searched strings, here-document text. */
  readonly data: (readonly [start: number, end: number])[];
}

const FETCHERS = new Set(['curl', 'wget', 'fetch', 'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'csh', 'tcsh', 'fish', 'ash', 'mksh']);
const INTERPRETERS = /^(?:python(?:\d(?:\.\d+)?)?|node(?:js)?|deno|bun|perl|ruby|php|pwsh|powershell|lua)$/;
const ARCHIVERS = new Set(['tar', 'unzip', 'bsdtar']);
/** Commands that only print, search or compare their arguments: a string given to them is data. */
const DATA = new Set([
  'echo',
  'printf',
  'print',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'logger',
  'cat',
  'test',
  '[',
  ':',
  'true',
  'false',
  'jq',
  'yq',
  'awk',
  'sed',
  'read',
  'comment',
]);
/** Commands that run the command after their options: `sudo -E bash`, `env A=1 sh`. */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'nohup',
  'time',
  'command',
  'exec',
  'nice',
  'stdbuf',
  'timeout',
  'xargs',
  'parallel',
  'builtin',
]);
/** Options of a wrapper that take the next word as their value. */
const WRAPPER_ARGS = /^-(?:[ugCDhprtUn]|-user|-group)$/;

/** A command's name with its path and `.exe` left out, lower-cased (PowerShell and Windows ignore case). */
function nameOf(w: Word | undefined): string {
  if (!w || w.subs.length > 0) return '';
  const v = w.value.slice(w.value.lastIndexOf('/') + 1).toLowerCase();
  return v.endsWith('.exe') ? v.slice(0, -4) : v;
}

interface Resolved {
  readonly cmd: Command;
  readonly name: string;
  readonly args: readonly Word[];
}

/** The command that actually runs, past assignments and wrappers such as `sudo -E` or `env A=1`. */
function resolve(cmd: Command): Resolved {
  let k = 0;
  const { words } = cmd;
  while (k < words.length && /^[A-Za-z_]\w*=/.test(words[k]!.value)) k++;
  while (k < words.length && WRAPPERS.has(nameOf(words[k]))) {
    const wrapper = nameOf(words[k]);
    k++;
    while (k < words.length) {
      const v = words[k]!.value;
      if (v === '--') k++;
      else if (v.startsWith('-')) k += WRAPPER_ARGS.test(v) && wrapper !== 'env' ? 2 : 1;
      else if (wrapper === 'env' && /^\w+=/.test(v)) k++;
      else if (wrapper === 'timeout' && /^\d/.test(v)) k++;
      else break;
      if (v === '--') break;
    }
  }
  return { cmd, name: nameOf(words[k]), args: words.slice(k + 1) };
}

const isInterpreter = (name: string) => SHELLS.has(name) || INTERPRETERS.test(name);

/** Reads its program from standard input: a shell with no script operand, an interpreter given `-` or nothing. */
function readsStdin(r: Resolved): 'shell' | 'interpreter' | 'source' | 'iex' | 'archive' | undefined {
  const values = r.args.map((a) => a.value);
  if (SHELLS.has(r.name)) {
    for (let k = 0; k < values.length; k++) {
      const v = values[k]!;
      if (v === '-s' || v === '-' || v === '--' || v === '/dev/stdin') return 'shell';
      if (/^-\w*c/.test(v) && !v.startsWith('--')) return undefined;
      if (/^[-+][oO]$/.test(v) || v === '--rcfile' || v === '--init-file') k++;
      else if (!/^[-+]/.test(v)) return undefined;
    }
    return 'shell';
  }
  if (INTERPRETERS.test(r.name))
    return values.every((v) => /^(?:-|-s|-u|-E|-W\S*|\/dev\/stdin)$/.test(v)) ? 'interpreter' : undefined;
  if (r.name === 'source' || r.name === '.')
    return values.length === 0 || /^(?:-|\/dev\/stdin|\/proc\/self\/fd\/0)$/.test(values[0]!) ? 'source' : undefined;
  if (r.name === 'iex' || r.name === 'invoke-expression') return 'iex';
  if (ARCHIVERS.has(r.name)) return 'archive';
  return undefined;
}

const PIPE_LABEL = {
  shell: 'curl|sh',
  interpreter: 'curl|interpreter',
  source: 'curl|source',
  iex: 'powershell download|iex',
  archive: 'remote archive → extract',
} as const;

const isDecode = (r: Resolved) => r.name === 'base64' && r.args.some((a) => /^(?:-d|--decode|-D)$/.test(a.value));

class Walk {
  readonly hits: Hit[] = [];
  readonly data: (readonly [number, number])[] = [];
  /** Variables assigned a download's output (`S=$(curl …)`). */
  private readonly tainted = new Set<string>();

  /** `scope`: the whole file `src` is part of, where a change of trust would be (D246). */
  constructor(
    private readonly src: string,
    private readonly scope: string,
  ) {}

  /** A fetch from somewhere that can serve anyone's payload. */
  private remote(r: Resolved): boolean {
    return FETCHERS.has(r.name) && !(nothingRemote(r) && !changesTrust(this.scope));
  }

  /** Whether the script runs a remote fetch anywhere, substitutions included. */
  private fetches(s: Script): boolean {
    return s.pipelines.some((p) =>
      p.commands.some((c) => {
        const r = resolve(c);
        return this.remote(r) || r.cmd.words.some((w) => w.subs.some((x) => this.fetches(x.script)));
      }),
    );
  }

  script(s: Script): void {
    for (const c of s.comments) this.data.push([c.start, c.end]);
    for (const p of s.pipelines) {
      const resolved = p.commands.map(resolve);
      resolved.forEach((r, k) => {
        this.command(r);
        const sink = readsStdin(r);
        if (!sink || k === 0) return;
        const feeds = resolved.slice(0, k);
        const from = feeds.find((f) => this.remote(f));
        const decoded = sink === 'shell' || sink === 'interpreter' ? feeds.find(isDecode) : undefined;
        const carried = feeds.find((f) => f.args.some((a) => this.usesTainted(a)));
        if (from) this.hit(PIPE_LABEL[sink], from.cmd.start, r.cmd.end);
        else if (decoded) this.hit('base64 -d|sh', decoded.cmd.start, r.cmd.end);
        else if (carried && sink !== 'archive') this.hit('download to a variable → eval', carried.cmd.start, r.cmd.end);
      });
    }
  }

  private command(r: Resolved): void {
    const { cmd, name, args } = r;
    for (const w of cmd.words) {
      const m = /^([A-Za-z_]\w*)=/.exec(w.value);
      if (m && w.subs.some((s) => this.fetches(s.script))) this.tainted.add(m[1]!);
      for (const s of w.subs) this.script(s.script);
    }
    if (DATA.has(name)) {
      for (const a of args) this.data.push([a.start, a.end]);
      for (const h of cmd.heredocs) this.data.push([h.start, h.end]);
      return;
    }
    const program = name === 'eval' || isInterpreter(name) || name === 'source' || name === '.';
    if (program) {
      const runs = name === 'eval' ? args : args.filter((a, k) => k > 0 && /^-\w*[ceEr]$/.test(args[k - 1]!.value));
      for (const a of runs) {
        const label = name === 'eval' ? 'eval $(curl …)' : 'sh -c "$(curl …)"';
        if (a.subs.some((s) => s.kind !== '<(' && this.fetches(s.script))) this.hit(label, cmd.start, cmd.end);
        else if (a.subs.some((s) => s.kind !== '<(' && decodes(s.script)))
          this.hit('decoded payload → eval', cmd.start, cmd.end);
        else if (this.usesTainted(a)) this.hit('download to a variable → eval', cmd.start, cmd.end);
      }
      if (args.some((a) => a.subs.some((s) => s.kind === '<(' && this.fetches(s.script))))
        this.hit('process substitution <(curl …)', cmd.start, cmd.end);
    }
    // A string given to anything but a printer may be code run elsewhere (`sh -c '…'`, `ssh h '…'`).
    for (const a of args) for (const q of a.quoted) this.nested(q.start, q.end);
    if (readsStdin(r) === 'shell' || readsStdin(r) === 'interpreter')
      for (const h of cmd.heredocs) this.nested(h.start, h.end);
    else for (const h of cmd.heredocs) this.data.push([h.start, h.end]);
  }

  private nested(start: number, end: number): void {
    if (!/curl|wget|fetch|iwr|irm|invoke-|base64/i.test(this.src.slice(start, end))) return;
    try {
      this.script(parseShell(this.src, start, end));
    } catch {
      // A string that is not shell is not a command: nothing runs it as one.
    }
  }

  private usesTainted(w: Word): boolean {
    const raw = this.src.slice(w.start, w.end);
    return [...this.tainted].some((v) => new RegExp(String.raw`\$\{?${v}\b`).test(raw));
  }

  private hit(label: string, start: number, end: number): void {
    this.hits.push({ label, offset: start, length: end - start, match: this.src.slice(start, end) });
  }
}

/** Commands that add words read from standard input to the command they run: its operands are not all written. */
const FEEDERS = new Set(['xargs', 'parallel']);

/**
 * A fetch of reserved HTTPS URLs or placeholders only, with no variable assigned for it
 * (`CURL_CA_BUNDLE=… curl`, `CURL_HOME=… curl`, whose config file may name a URL) and not run
 * by `xargs` or `parallel` (`echo evil.io | xargs curl`), which append operands it does not show.
 */
function nothingRemote(r: Resolved): boolean {
  const before = r.cmd.words.slice(0, r.cmd.words.length - r.args.length - 1);
  return (
    !before.some((w) => /^[A-Za-z_]\w*=/.test(w.value) || FEEDERS.has(nameOf(w))) &&
    fetchesNothingRemote(r.name, r.args)
  );
}

/**
 * `src` parsed from `start` to `end`. Documentation writes a placeholder as `<url>`, which is a
 * redirection in shell, so text that does not parse is read once more with each `<name>` that
 * stands alone written `[name]` (same length, so places keep their offsets; ./reserved-host.ts
 * judges `[name]` a placeholder host). Text that parses is never rewritten: `cmd <in >out` keeps
 * its meaning. A ParseError when neither reading parses.
 */
export function parseDocumented(src: string, start: number, end: number): { script: Script; src: string } {
  try {
    return { script: parseShell(src, start, end), src };
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    const part = src.slice(start, end).replace(/(^|[\s=])<([A-Za-z][\w-]*)>(?=$|[\s|;&)])/gm, '$1[$2]');
    if (part === src.slice(start, end)) throw e;
    const rewritten = src.slice(0, start) + part + src.slice(end);
    return { script: parseShell(rewritten, start, end), src: rewritten };
  }
}

/** A fetcher's name where a word starts: as many as the judged fetches, or some fetch went unread. */
const FETCH_WORD = /(?<![\w./-])(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)(?![\w-])/gi;

/**
 * For a line shape's hit at `start`..`end` of `text` (SPEC D246, D256): whether every fetch on
 * its lines reads nothing remote — reserved hosts or no fetchable operand. The lines are parsed
 * as shell; a `scope` (the whole file) that changes trust, a line that does not parse, or a
 * fetcher's name anywhere on them that is not a command so judged (inside a string, a comment,
 * another language) keeps the hit.
 */
export function fetchesNothingRemoteAt(text: string, start: number, end: number, scope = text): boolean {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  let to = text.indexOf('\n', Math.max(end - 1, from));
  while (to > 0 && text[to - 1] === '\\') to = text.indexOf('\n', to + 1);
  if (to < 0) to = text.length;
  let judged = 0;
  const all = (s: Script): boolean =>
    s.pipelines.every((p) =>
      p.commands.every((c) =>
        c.words.every((w, k) => {
          if (!w.subs.every((x) => all(x.script))) return false;
          if (!FETCHERS.has(nameOf(w))) return true;
          judged++;
          return nothingRemote({ cmd: c, name: nameOf(w), args: c.words.slice(k + 1) });
        }),
      ),
    );
  try {
    if (!all(parseDocumented(text, from, to).script)) return false;
  } catch (e) {
    if (e instanceof ParseError) return false;
    throw e;
  }
  return judged > 0 && judged === (text.slice(from, to).match(FETCH_WORD) ?? []).length && !changesTrust(scope);
}

function decodes(s: Script): boolean {
  return s.pipelines.some((p) => p.commands.some((c) => isDecode(resolve(c))));
}

/**
 * The remote-exec findings of the shell code in `src` from `start` to `end`; a ParseError when it
 * is not shell. `scope`: the code of the whole file, read for changes of trust (D246).
 */
export function shellRemoteExec(src: string, start = 0, end = src.length, scope = src): ShellVerdict {
  const parsed = parseDocumented(src, start, end);
  const walk = new Walk(parsed.src, scope);
  walk.script(parsed.script);
  const hits = walk.hits.map((h) => ({ ...h, match: src.slice(h.offset, h.offset + h.length) }));
  return { hits, data: walk.data };
}
