/*
 * A shell parser for the remote-exec check (SPEC.md D231): it reads POSIX/Bash syntax into
 * statements, pipelines, commands and words, with the command and process substitutions
 * inside words parsed as scripts of their own. It knows quoting, escapes, `\`-continued
 * lines, comments, here-documents, `$(…)`, backticks, `${…}`, `$((…))`, `<(…)`, `>(…)`,
 * redirections and every control operator. Reserved words (`if`, `then`, `do`, …) and the
 * braces and parentheses of compound commands only separate commands: what the check asks
 * is which commands run and what feeds them, not the control flow between them.
 *
 * Offsets are those of the source string. A text that is not shell — an unterminated quote,
 * substitution or here-document, a stray operator — is a ParseError, and the caller decides
 * what to do then.
 */

export interface Word {
  readonly start: number;
  readonly end: number;
  /** The word's value with quotes and escapes removed; each expansion reads as `\u0000`. */
  readonly value: string;
  /** Command substitutions, backticks and process substitutions inside the word. */
  readonly subs: readonly Sub[];
  /** Quoted pieces, with their content's place: strings that may be code run elsewhere. */
  readonly quoted: readonly Piece[];
}

export interface Sub {
  readonly kind: '$(' | '`' | '<(' | '>(';
  readonly script: Script;
}

export interface Piece {
  readonly start: number;
  readonly end: number;
  /** `'`: no expansion or escape inside, so the content is its own text. */
  readonly quote: "'" | '"';
}

export interface HereDoc {
  /** The body's place (the lines between the operator's line and the delimiter). */
  readonly start: number;
  readonly end: number;
}

export interface Command {
  readonly start: number;
  readonly end: number;
  /** Assignments (`A=b`) first, then the command's words. */
  readonly words: readonly Word[];
  /** `<<EOF` bodies this command reads. */
  readonly heredocs: readonly HereDoc[];
  /** Words a here-string (`<<<`) or an input redirection (`<`) feeds it. */
  readonly input: readonly Word[];
}

export interface Pipeline {
  readonly commands: readonly Command[];
}

export interface Comment {
  readonly start: number;
  readonly end: number;
}

export interface Script {
  readonly pipelines: readonly Pipeline[];
  readonly comments: readonly Comment[];
}

export class ParseError extends Error {}

const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'for',
  'in',
  'case',
  'esac',
  'select',
  'function',
  '!',
  '{',
  '}',
  '[[',
  ']]',
]);
const META = ' \t\n;&|<>()';

interface Pending {
  readonly delimiter: string;
  readonly strip: boolean;
  readonly docs: HereDoc[];
}

class Parser {
  private i: number;
  private readonly comments: Comment[] = [];
  private readonly pending: Pending[] = [];

  private readonly src: string;

  constructor(
    src: string,
    start: number,
    private readonly end: number,
  ) {
    // Cut at the end, so no look-ahead reads past it (offsets stay those of the whole text).
    this.src = src.length > end ? src.slice(0, end) : src;
    this.i = start;
  }

  /** Statements up to `close` (`)` of a substitution) or the end of the text. */
  script(close?: string): Script {
    const pipelines: Pipeline[] = [];
    let commands: Command[] = [];
    const flush = () => {
      if (commands.length > 0) pipelines.push({ commands });
      commands = [];
    };
    let depth = 0;
    for (;;) {
      this.blanks();
      if (this.i >= this.end) break;
      const c = this.src[this.i]!;
      if (close !== undefined && c === close && depth === 0) break;
      if (c === '\n') {
        this.i++;
        this.hereDocs();
        flush();
      } else if (c === '#') this.comment();
      else if (c === '|' && this.src[this.i + 1] === '|') {
        this.i += 2;
        flush();
      } else if (c === '|') {
        if (commands.length === 0) throw new ParseError('a pipe with no command before it');
        this.i += this.src[this.i + 1] === '&' ? 2 : 1;
        this.continuation();
      } else if (c === ';' || c === '&') {
        this.i += this.src.startsWith(';;', this.i) || this.src.startsWith('&&', this.i) ? 2 : 1;
        flush();
      } else if (c === '(' || c === ')') {
        // A subshell or a case pattern's end: it separates commands here.
        depth = Math.max(0, depth + (c === '(' ? 1 : -1));
        this.i++;
        flush();
      } else {
        const cmd = this.command();
        if (cmd) commands.push(cmd);
      }
    }
    if (close === undefined && this.pending.length > 0) throw new ParseError('a here-document without its end');
    flush();
    return { pipelines, comments: this.comments };
  }

  /** After `|`: the pipeline goes on past newlines and comments. */
  private continuation(): void {
    for (;;) {
      this.blanks();
      const c = this.src[this.i];
      if (c === '\n') {
        this.i++;
        this.hereDocs();
      } else if (c === '#') this.comment();
      else return;
    }
  }

  private command(): Command | undefined {
    const words: Word[] = [];
    const heredocs: HereDoc[] = [];
    const input: Word[] = [];
    let start = this.i;
    let end = start;
    for (;;) {
      this.blanks();
      if (this.i >= this.end) break;
      const c = this.src[this.i]!;
      if (c === '\n' || c === ';' || c === '|' || c === ')') break;
      if (c === '&' && !this.src.startsWith('&>', this.i)) break;
      if (c === '(') {
        // `name()` defines a function; any other `(` here ends the command.
        if (this.src[this.i + 1] === ')' && words.length > 0) {
          this.i += 2;
          continue;
        }
        break;
      }
      if (c === '#') break;
      if (this.redirection(heredocs, input)) {
        end = this.i;
        continue;
      }
      const w = this.word();
      if (words.length === 0 && w.subs.length === 0 && w.quoted.length === 0 && RESERVED.has(w.value)) {
        start = end = this.i;
        continue;
      }
      words.push(w);
      end = this.i;
    }
    if (words.length === 0 && heredocs.length === 0 && input.length === 0) return undefined;
    return { start, end, words, heredocs, input };
  }

  /** A redirection at the cursor, read whole; false when there is none. */
  private redirection(heredocs: HereDoc[], input: Word[]): boolean {
    const m = /^(?:\d+|\{\w+\})?(<<<|<<-|<<|<>|<&|>&|>>|>\||&>>|&>|<(?!\()|>(?!\())/.exec(
      this.src.slice(this.i, Math.min(this.end, this.i + 16)),
    );
    if (!m) return false;
    this.i += m[0].length;
    this.blanks();
    if (this.i >= this.end || '\n;&|()'.includes(this.src[this.i]!))
      throw new ParseError('a redirection without a target');
    const target = this.word();
    const op = m[1]!;
    if (op === '<<' || op === '<<-') {
      // The body is read at the next newline, into the command's own list.
      this.pending.push({ delimiter: target.value, strip: op === '<<-', docs: heredocs });
    } else if (op === '<<<' || op === '<') input.push(target);
    return true;
  }

  /** The bodies of the here-documents opened on the line just ended. */
  private hereDocs(): void {
    for (const p of this.pending.splice(0)) {
      const bodyStart = this.i;
      for (;;) {
        if (this.i >= this.end) throw new ParseError('a here-document without its end');
        let eol = this.src.indexOf('\n', this.i);
        if (eol === -1 || eol > this.end) eol = this.end;
        const line = this.src.slice(this.i, eol);
        if ((p.strip ? line.replace(/^\t+/, '') : line).replace(/\r$/, '') === p.delimiter) {
          p.docs.push({ start: bodyStart, end: this.i });
          this.i = Math.min(eol + 1, this.end);
          break;
        }
        this.i = eol + 1;
      }
    }
  }

  private comment(): void {
    let eol = this.src.indexOf('\n', this.i);
    if (eol === -1 || eol > this.end) eol = this.end;
    this.comments.push({ start: this.i, end: eol });
    this.i = eol;
  }

  /** Spaces, tabs and `\`-newlines. */
  private blanks(): void {
    for (;;) {
      const c = this.src[this.i];
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '\\' && this.src[this.i + 1] === '\n') this.i += 2;
      else if (c === '\\' && this.src[this.i + 1] === '\r' && this.src[this.i + 2] === '\n') this.i += 3;
      else return;
    }
  }

  private word(): Word {
    const start = this.i;
    let value = '';
    const subs: Sub[] = [];
    const quoted: Piece[] = [];
    if (this.src.startsWith('<(', this.i) || this.src.startsWith('>(', this.i)) {
      const kind = this.src.slice(this.i, this.i + 2) as '<(' | '>(';
      this.i += 2;
      subs.push({ kind, script: this.nested(')') });
      return { start, end: this.i, value: '\0', subs, quoted };
    }
    while (this.i < this.end) {
      const c = this.src[this.i]!;
      if (META.includes(c)) break;
      if (c === '\\') {
        const next = this.src[this.i + 1];
        if (next === '\n') this.i += 2;
        else {
          if (next !== undefined) value += next;
          this.i += 2;
        }
      } else if (c === "'") {
        const close = this.src.indexOf("'", this.i + 1);
        if (close === -1 || close >= this.end) throw new ParseError('an unterminated single quote');
        quoted.push({ start: this.i + 1, end: close, quote: "'" });
        value += this.src.slice(this.i + 1, close);
        this.i = close + 1;
      } else if (c === '"') {
        value += this.doubleQuoted(subs, quoted);
      } else if (c === '$' || c === '`') {
        value += this.expansion(subs);
      } else {
        value += c;
        this.i++;
      }
    }
    return { start, end: this.i, value, subs, quoted };
  }

  private doubleQuoted(subs: Sub[], quoted: Piece[]): string {
    const open = this.i++;
    let value = '';
    while (this.i < this.end && this.src[this.i] !== '"') {
      const c = this.src[this.i]!;
      if (c === '\\') {
        const next = this.src[this.i + 1] ?? '';
        value += '$`"\\\n'.includes(next) ? (next === '\n' ? '' : next) : c + next;
        this.i += 2;
      } else if (c === '$' || c === '`') value += this.expansion(subs);
      else {
        value += c;
        this.i++;
      }
    }
    if (this.i >= this.end) throw new ParseError('an unterminated double quote');
    quoted.push({ start: open + 1, end: this.i, quote: '"' });
    this.i++;
    return value;
  }

  /** `$…` or a backtick at the cursor; returns what it adds to the word's value. */
  private expansion(subs: Sub[]): string {
    const s = this.src;
    if (s[this.i] === '`') {
      const close = this.closingBacktick(this.i + 1);
      subs.push({ kind: '`', script: new Parser(s, this.i + 1, close).script() });
      this.i = close + 1;
      return '\0';
    }
    if (s.startsWith('$((', this.i)) {
      this.i = this.balanced(this.i + 1, '(', ')');
      return '\0';
    }
    if (s.startsWith('$(', this.i)) {
      this.i += 2;
      subs.push({ kind: '$(', script: this.nested(')') });
      return '\0';
    }
    if (s.startsWith('${', this.i)) {
      this.i = this.balanced(this.i + 1, '{', '}');
      return '\0';
    }
    if (s.startsWith("$'", this.i)) {
      const m = /^\$'(?:[^'\\]|\\[\s\S])*'/.exec(s.slice(this.i, this.end));
      if (!m) throw new ParseError('an unterminated $-quote');
      this.i += m[0].length;
      return m[0].slice(2, -1);
    }
    const m = /^\$(?:\w+|[@*#?$!0-9-])/.exec(s.slice(this.i, this.i + 64));
    this.i += m ? m[0].length : 1;
    return m ? '\0' : '$';
  }

  /** A substitution's script, and the cursor past its closing character. */
  private nested(close: string): Script {
    const inner = new Parser(this.src, this.i, this.end);
    const script = inner.script(close);
    if (this.src[inner.i] !== close) throw new ParseError('an unterminated substitution');
    this.i = inner.i + 1;
    return script;
  }

  private closingBacktick(from: number): number {
    for (let k = from; k < this.end; k++) {
      if (this.src[k] === '\\') k++;
      else if (this.src[k] === '`') return k;
    }
    throw new ParseError('an unterminated backtick');
  }

  /** Past the bracket that closes the one at `at`, quotes respected. */
  private balanced(at: number, open: string, close: string): number {
    let depth = 0;
    for (let k = at; k < this.end; k++) {
      const c = this.src[k]!;
      if (c === '\\') k++;
      else if (c === "'" && open === '{') {
        const q = this.src.indexOf("'", k + 1);
        if (q === -1) break;
        k = q;
      } else if (c === open) depth++;
      else if (c === close && --depth === 0) return k + 1;
    }
    throw new ParseError(`an unterminated ${open}`);
  }
}

/** The script in `src` from `start` to `end` (default: all of it). */
export function parseShell(src: string, start = 0, end = src.length): Script {
  return new Parser(src, start, end).script();
}
