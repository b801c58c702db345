import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import type { LimitHit, WrappedCommand } from './types';

export type Stream = 'stdout' | 'stderr';

/** What the executor reports while a command runs. */
export type ExecEvent =
  | { readonly type: 'spawned'; readonly pid: number | undefined }
  | { readonly type: 'output'; readonly stream: Stream; readonly text: string }
  | { readonly type: 'truncated'; readonly stream: Stream; readonly limitBytes: number };

export interface ExecOutcome {
  /** The script's exit code; null when it was killed (timeout, cancel) or never started. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  /** Bytes dropped past the cap, per stream. */
  readonly dropped: Readonly<Record<Stream, number>>;
  /**
   * Processes still alive when the script exited, all killed: a count when the sandbox
   * reported it, true when the count is unknown, 0 when there were none.
   */
  readonly strays: number | true;
  /** Set when the command could not be started at all. */
  readonly spawnError?: string;
  /** A resource limit the run hit (from the teardown's counters). */
  readonly limitHit?: LimitHit;
}

export interface ExecOptions {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: ExecEvent) => void;
  /** How long to wait for output pipes held open by an escaped process after exit. */
  readonly drainMs?: number;
}

/**
 * Spawn a wrapped command in its own process group, forward its output (capped, as
 * text), and kill the whole group on timeout, on cancel, and when the script exits with
 * something still running. Never throws; the outcome says what happened.
 */
export function execute(cmd: WrappedCommand, opts: ExecOptions): Promise<ExecOutcome> {
  const started = Date.now();
  const emit = opts.onEvent ?? (() => undefined);
  return new Promise((resolve) => {
    const dropped: Record<Stream, number> = { stdout: 0, stderr: 0 };
    let timedOut = false;
    let cancelled = false;
    let strays: number | true = 0;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    if (opts.signal?.aborted) {
      resolve({ code: null, signal: null, timedOut: false, cancelled: true, durationMs: 0, dropped, strays: 0 });
      return;
    }
    const child = spawn(cmd.file, [...cmd.args], {
      cwd: cmd.cwd,
      env: { ...cmd.env },
      stdio: [
        'ignore',
        'pipe',
        'pipe',
        cmd.reportsStrays ? 'pipe' : 'ignore',
        cmd.fd4 ? 'pipe' : 'ignore',
        cmd.setup ? 'pipe' : 'ignore',
        cmd.setup ? 'pipe' : 'ignore',
      ],
      detached: true,
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone — or there are no process groups (Windows): kill the child itself.
        if (process.platform === 'win32') child.kill('SIGKILL');
      }
    };
    let setupError: string | undefined;
    const finish = (spawnError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (drainTimer) clearTimeout(drainTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      killGroup();
      const note = cmd.teardown?.();
      const failed = setupError ?? spawnError;
      resolve({
        code: timedOut || cancelled ? null : (exit?.code ?? null),
        signal: exit?.signal ?? null,
        timedOut,
        cancelled,
        durationMs: Date.now() - started,
        dropped,
        strays,
        ...(failed !== undefined ? { spawnError: failed } : {}),
        ...(note !== undefined ? { limitHit: note } : {}),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      killGroup();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const pump = (stream: Stream, src: Readable): void => {
      const decoder = new StringDecoder('utf8');
      let kept = 0;
      let cut = false;
      src.on('data', (chunk: Buffer) => {
        const room = opts.maxOutputBytes - kept;
        const part = chunk.length > room ? chunk.subarray(0, Math.max(0, room)) : chunk;
        if (part.length > 0) {
          kept += part.length;
          const text = decoder.write(part);
          if (text) emit({ type: 'output', stream, text });
        }
        if (part.length < chunk.length) {
          dropped[stream] += chunk.length - part.length;
          if (!cut) {
            cut = true;
            const rest = decoder.end();
            if (rest) emit({ type: 'output', stream, text: rest });
            emit({ type: 'truncated', stream, limitBytes: opts.maxOutputBytes });
          }
        }
      });
      src.on('end', () => {
        if (!cut) {
          const rest = decoder.end();
          if (rest) emit({ type: 'output', stream, text: rest });
        }
      });
    };
    pump('stdout', child.stdout!);
    pump('stderr', child.stderr!);
    const status = child.stdio[3] as Readable | null | undefined;
    let statusText = '';
    if (status) {
      status.on('error', () => undefined);
      status.setEncoding('utf8');
      status.on('data', (d: string) => {
        if (statusText.length < 4096) statusText += d;
        const m = /stray (\d+)/.exec(statusText);
        if (m) strays = Number(m[1]);
      });
    }

    const fd4 = child.stdio[4] as Writable | null | undefined;
    if (fd4 && cmd.fd4) {
      fd4.on('error', () => undefined);
      fd4.end(Buffer.from(cmd.fd4));
    }
    // bwrap writes its child's PID on fd 5, then waits for a byte on fd 6: the setup (a
    // cgroup, the network namespace's link) runs in between, and a failed setup never
    // lets the script start (fail closed).
    const extra = child.stdio as unknown as readonly unknown[];
    const info = extra[5] as Readable | null | undefined;
    const block = extra[6] as Writable | null | undefined;
    if (cmd.setup && info && block) {
      block.on('error', () => undefined);
      info.on('error', () => undefined);
      let infoText = '';
      let begun = false;
      info.setEncoding('utf8');
      info.on('data', (d: string) => {
        infoText += d;
        const m = /"child-pid"\s*:\s*(\d+)/.exec(infoText);
        if (!m || begun) return;
        begun = true;
        void cmd.setup!(Number(m[1])).then(
          (err) => {
            if (err === undefined) block.end('go');
            else {
              setupError = `the sandbox could not be set up: ${err}`;
              killGroup();
            }
          },
          (e: unknown) => {
            setupError = `the sandbox could not be set up: ${e instanceof Error ? e.message : String(e)}`;
            killGroup();
          },
        );
      });
    }
    child.on('spawn', () => emit({ type: 'spawned', pid: child.pid }));
    child.on('error', (e: NodeJS.ErrnoException) => finish(`${cmd.file}: ${e.code ?? e.message}`));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Anything left in the group outlived the script: note it, then kill it.
      if (child.pid !== undefined && !cmd.reportsStrays && !timedOut && !cancelled) {
        try {
          process.kill(-child.pid, 0);
          strays = true;
        } catch {
          // nobody left
        }
      }
      killGroup();
      // An escaped process may still hold the pipes; do not wait for it forever.
      drainTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, opts.drainMs ?? 2000);
    });
    child.on('close', () => {
      // The wrapper reports "started" before the script runs; without it, the sandbox
      // itself failed (its own complaint went to stderr).
      if (
        cmd.reportsStrays &&
        !timedOut &&
        !cancelled &&
        setupError === undefined &&
        !statusText.startsWith('started')
      ) {
        finish(
          `the sandbox could not be set up (${cmd.file} exited ${String(exit?.code ?? exit?.signal ?? 'early')}; see its message above)`,
        );
      } else finish();
    });
  });
}
