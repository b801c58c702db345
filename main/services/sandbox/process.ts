import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

export interface Captured {
  /** Exit code, or null when killed by a signal or never started. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when the program could not be started (ENOENT, EACCES …). */
  readonly spawnError?: NodeJS.ErrnoException;
  readonly timedOut: boolean;
}

/** Run a short helper command (a probe) and collect what it printed; never throws. */
export function capture(
  file: string,
  args: readonly string[],
  opts: { env: Readonly<Record<string, string>>; timeoutMs: number; fd4?: Uint8Array },
): Promise<Captured> {
  return new Promise((done) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const finish = (c: Captured): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(c);
    };
    let child;
    try {
      child = spawn(file, [...args], {
        env: { ...opts.env },
        stdio: ['ignore', 'pipe', 'pipe', 'ignore', opts.fd4 ? 'pipe' : 'ignore'],
      });
    } catch (e) {
      done({ code: null, stdout: '', stderr: '', spawnError: e as NodeJS.ErrnoException, timedOut: false });
      return;
    }
    const fd4 = child.stdio[4] as Writable | null | undefined;
    if (fd4 && opts.fd4) {
      fd4.on('error', () => undefined);
      fd4.end(Buffer.from(opts.fd4));
    }
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < 65536) stdout += d;
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 65536) stderr += d;
    });
    child.on('error', (e: NodeJS.ErrnoException) => finish({ code: null, stdout, stderr, spawnError: e, timedOut }));
    child.on('close', (code) => finish({ code, stdout, stderr, timedOut }));
  });
}

/** The first few non-empty lines of a program's complaint. */
export function firstLines(text: string, n = 3): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .slice(0, n)
    .join(' / ');
}
