import { escapeTerminal } from '../../shared/terminal/escape';

/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIo {
  readonly cwd: string;
  out(text: string): void;
  err(text: string): void;
  /** The unescaped streams under a `terminalIo`: only for a script's own output, passed on as it is. */
  readonly raw?: CliIo;
}

/**
 * Human output: whatever a command writes reaches the terminal with its control characters
 * shown as visible escapes (newline and tab kept for layout), so no skill, file name or
 * source can colour, hide or rewrite a line. Renderers still escape one-line values
 * themselves, where a newline would forge a line. `exactOut` is for `--json`: stdout then
 * carries JSON, whose encoder escapes what it must and keeps the exact text; stderr stays human.
 */
export function terminalIo(io: CliIo, { exactOut = false }: { exactOut?: boolean } = {}): CliIo {
  return {
    cwd: io.cwd,
    out: exactOut ? (t) => io.out(t) : (t) => io.out(escapeTerminal(t, 'text')),
    err: (t) => io.err(escapeTerminal(t, 'text')),
    raw: io,
  };
}

/** The CLI's own codes live with the error codes that map onto them (shared/result.ts). */
export { EXIT } from '../../shared/result';
/** 0/1/2 are the CLI's own codes (EXIT); `run` and `gate` pass a script's own code through. */
export type ExitCode = number;
