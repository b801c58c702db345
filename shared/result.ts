import type { IpcErrorCode } from './ipc/errors';

/**
 * The one error model. A function that can fail returns a `Result`; its failure is a
 * `SkillsmithError` whose `code` is one row of `ERROR_CODES`, and that row alone decides
 * what the failure becomes at each edge: the IPC error code the renderer sees and the CLI's
 * exit code. Where an edge must throw (file-system walks, a commit half-way), it throws a
 * `CodedError` with the same code. A failure may carry more than code and message (where in
 * a text it sits, which dependency clashed) by extending `SkillsmithError`, never by
 * replacing it.
 */

/**
 * The CLI's own exit codes; `run` and `gate` pass a script's own code through instead.
 * `interrupted` is the shell's 128 + SIGINT, for a run the user cancelled.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;
export type Exit = (typeof EXIT)[keyof typeof EXIT];

interface CodeRow {
  readonly ipc: IpcErrorCode;
  readonly exit: Exit;
}

/**
 * Every code, with the IPC code and exit code it becomes. Each IPC code is its own row, so
 * the renderer reads the code itself; `invalid-input` is the one code the contract does not
 * tell apart (it has always reported it as `invalid-request`), kept because the CLI does:
 * a malformed command line exits 2, a skill or source that does not load exits 1.
 */
export const ERROR_CODES = {
  /** The request or the command line is malformed: a payload off its schema, a bad flag. */
  'invalid-request': { ipc: 'invalid-request', exit: EXIT.usage },
  /** What a well-formed request names cannot be used: a file that does not parse, a source that does not stage. */
  'invalid-input': { ipc: 'invalid-request', exit: EXIT.failed },
  'not-found': { ipc: 'not-found', exit: EXIT.failed },
  /** A project-scoped request with no project open. */
  'no-project': { ipc: 'no-project', exit: EXIT.failed },
  /** A path that leaves the project (or the folder it was meant for), by `..` or by a link. */
  'outside-project': { ipc: 'outside-project', exit: EXIT.failed },
  /** Refused on purpose: a safety or policy block, a review that changed, a project another command holds. */
  forbidden: { ipc: 'forbidden', exit: EXIT.failed },
  /** Something this build or this window cannot do. */
  unsupported: { ipc: 'unsupported', exit: EXIT.failed },
  /** A bug or an unexpected environment failure; the message says what broke. */
  internal: { ipc: 'internal', exit: EXIT.failed },
  /** A handler's answer that broke the contract (the transport's own check). */
  'invalid-response': { ipc: 'invalid-response', exit: EXIT.failed },
  /** A channel the contract does not define — the transport's counterpart of an unknown command. */
  'unknown-channel': { ipc: 'unknown-channel', exit: EXIT.usage },
} as const satisfies Record<string, CodeRow>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface SkillsmithError {
  readonly code: ErrorCode;
  /** One line for the user, without the place (`formatError` puts `file:line:col` first). */
  readonly message: string;
  /** Display path of the file at fault. */
  readonly file?: string;
  /** 1-based, in `file`. */
  readonly line?: number;
  readonly column?: number;
  /** Lines that belong under the message: every violation of an invalid manifest. */
  readonly detail?: readonly string[];
}

export type Result<T, E extends SkillsmithError = SkillsmithError> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail(
  code: ErrorCode,
  message: string,
  extra: Omit<Partial<SkillsmithError>, 'code' | 'message'> = {},
): { ok: false; error: SkillsmithError } {
  return { ok: false, error: { code, message, ...extra } };
}

/** A file Skillsmith read does not load: it does not parse, is not text, is too big, is a link. */
export function fileError(
  file: string,
  message: string,
  extra: Pick<Partial<SkillsmithError>, 'line' | 'column' | 'detail'> = {},
): SkillsmithError {
  return { code: 'invalid-input', message, file, ...extra };
}

/** One line for the user, `<file>:<line>:<col>: <message>`, with `detail` indented under it. */
export function formatError(e: SkillsmithError): string {
  const where =
    e.file === undefined
      ? undefined
      : e.line !== undefined
        ? `${e.file}:${e.line}${e.column !== undefined ? `:${e.column}` : ''}`
        : e.file;
  const head = where === undefined ? e.message : `${where}: ${e.message}`;
  return e.detail && e.detail.length > 0 ? `${head}\n${e.detail.map((p) => `  - ${p}`).join('\n')}` : head;
}

/** The throwable form, for edges that must throw; its message is already formatted. */
export class CodedError extends Error implements SkillsmithError {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CodedError';
  }

  static of(e: SkillsmithError): CodedError {
    return new CodedError(e.code, formatError(e));
  }
}

/** `e` is a CodedError (with one of `codes`, when given). */
export function isCoded(e: unknown, ...codes: readonly ErrorCode[]): e is CodedError {
  return e instanceof CodedError && (codes.length === 0 || codes.includes(e.code));
}
