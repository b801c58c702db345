/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIo {
  readonly cwd: string;
  out(text: string): void;
  err(text: string): void;
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
/** 0/1/2 are the CLI's own codes (EXIT); `run` and `gate` pass a script's own code through. */
export type ExitCode = number;

/** A user mistake on the command line: one line on stderr, exit 2. */
export class UsageError extends Error {}
