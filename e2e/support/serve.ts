import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, skillsmithBin } from '../../tests/support/paths';

export interface Served {
  /** The URL from the first line, with its token. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly port: number;
  /** Everything printed so far. */
  readonly output: () => string;
  stop(): Promise<number | null>;
}

/** The renderer the suites drive: the shipped code built with its test hooks (`npm run build` makes both). */
export const TEST_RENDERER = join(repoRoot, 'out', 'renderer-test');

/**
 * Start the real `skillsmith serve` (the built CLI) as a child process and wait for its
 * first line, which must be the URL. It serves the test build of the renderer. `wrap` is a
 * command that runs it (it must exec its arguments, so signals reach serve).
 */
export function startServe(
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 20_000,
  wrap: readonly string[] = [],
): Promise<Served> {
  const command = [...wrap, process.execPath, skillsmithBin, 'serve', ...args];
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd: repoRoot,
    env: { ...process.env, SKILLSMITH_RENDERER_DIR: TEST_RENDERER, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`skillsmith serve printed no URL within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`skillsmith serve exited (${code}) before printing its URL\nstdout: ${out}\nstderr: ${err}`));
    });
    const onData = () => {
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const first = out.slice(0, nl);
      const m = /^Skillsmith running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+))$/.exec(first);
      if (!m) {
        child.kill('SIGKILL');
        return fail(new Error(`unexpected first line: ${JSON.stringify(first)}`));
      }
      ok({
        url: m[1]!,
        origin: `http://127.0.0.1:${m[2]}`,
        port: Number(m[2]),
        token: m[3]!,
        output: () => out + err,
        // SIGTERM is a clean stop. A server that is still up 10 s later is killed and
        // reported as -1, so a hang fails the suite instead of stalling it.
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          let timer: NodeJS.Timeout | undefined;
          const hung = new Promise<number>((done) => {
            timer = setTimeout(() => {
              child.kill('SIGKILL');
              done(-1);
            }, 10_000);
          });
          const code = await Promise.race([exited, hung]);
          clearTimeout(timer);
          return code;
        },
      });
    };
    child.stdout!.on('data', onData);
  });
}

/** A throwaway copy of the example workspace, and a fresh app data folder. */
export function scratchWorkspace(): { root: string; project: string; dataDir: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'skillsmith-e2e-'));
  const project = join(root, 'workspace');
  cpSync(join(repoRoot, 'examples', 'workspace'), project, { recursive: true });
  const dataDir = join(root, 'data');
  return { root, project, dataDir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
