import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { scannerArgv, writesSarifFile, type ScannerDef } from '../../../shared/scanners/config';

/**
 * Running one external scanner over one staged skill folder (SPEC D253). The scanner is a
 * third-party program reading untrusted files: it gets an argv (no shell), the skill folder
 * as its working folder, a time limit after which its whole process group is killed, and a
 * bound on the SARIF it may hand back. Parsing is shared/scanners/sarif.ts's.
 */
export type ScanOutcome =
  | { readonly state: 'ran'; readonly sarif: string }
  | { readonly state: 'not-installed' | 'failed'; readonly problem: string };

export const MAX_SARIF_BYTES = 16 * 1024 * 1024;
const KEEP_STDERR = 4096;

type Env = Readonly<Record<string, string | undefined>>;

export interface ScanOptions {
  /** The project root: `{project}`, and where a program named by a relative path is found. */
  readonly base: string;
  readonly env?: Env;
  readonly maxBytes?: number;
}

/**
 * The program file a command's first word names: a path (relative to `base`) as written,
 * else the first match on PATH (with PATHEXT on Windows). Undefined when there is none.
 */
export function findProgram(program: string, base: string, env: Env = process.env): string | undefined {
  const runnable = (p: string): boolean => {
    try {
      if (!statSync(p).isFile()) return false;
      accessSync(p, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (isAbsolute(program) || /[\\/]/.test(program)) {
    const p = resolve(base, program);
    return runnable(p) ? p : undefined;
  }
  const exts = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = join(dir, program + ext);
      if (runnable(p)) return p;
    }
  }
  return undefined;
}

/** The last non-empty line of what the scanner said on stderr, printable and short. */
function lastLine(text: string): string {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.replace(/\p{Cc}+/gu, ' ').trim())
    .filter(Boolean)
    .pop();
  return line === undefined ? '' : `: ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`;
}

export async function runScanner(def: ScannerDef, skillDir: string, opts: ScanOptions): Promise<ScanOutcome> {
  const env = opts.env ?? process.env;
  const max = opts.maxBytes ?? MAX_SARIF_BYTES;
  const program = findProgram(def.command[0]!, opts.base, env);
  if (program === undefined)
    return { state: 'not-installed', problem: `"${def.command[0]}" is not installed (not found on PATH)` };
  const tmp = await mkdtemp(join(tmpdir(), 'skillsmith-scan-'));
  const sarifFile = join(tmp, 'scan.sarif');
  try {
    const argv = scannerArgv(def, { skill: skillDir, sarif: sarifFile, project: opts.base });
    const run = await spawnBounded(program, argv.slice(1), skillDir, env, def.timeout * 1000, max);
    if (run.error !== undefined) return { state: 'failed', problem: run.error };
    let sarif = run.stdout;
    if (writesSarifFile(def)) {
      const size = await stat(sarifFile).then(
        (s) => s.size,
        () => -1,
      );
      if (size > max) return { state: 'failed', problem: `wrote more than ${max / 1024 / 1024} MiB of SARIF` };
      sarif = size >= 0 ? await readFile(sarifFile, 'utf8') : '';
    }
    if (sarif.trim() === '')
      return {
        state: 'failed',
        problem: `exited with ${run.code === null ? `signal ${run.signal}` : `code ${run.code}`} without SARIF${lastLine(run.stderr)}`,
      };
    // Many scanners exit non-zero when they found something: the SARIF is what counts.
    return { state: 'ran', sarif };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

interface Spawned {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly error?: string;
}

function spawnBounded(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Env,
  timeoutMs: number,
  max: number,
): Promise<Spawned> {
  return new Promise((done) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let problem: string | undefined;
    const child = spawn(file, [...args], {
      cwd,
      env: { ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      // Its own process group, so a timeout kills what it started too.
      detached: process.platform !== 'win32',
    });
    const kill = (why: string): void => {
      problem ??= why;
      try {
        if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => kill(`timed out after ${timeoutMs / 1000} s`), timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > max) kill(`wrote more than ${max / 1024 / 1024} MiB of output`);
      else out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString('utf8')).slice(-KEEP_STDERR);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      done({ stdout: '', stderr: err, code: null, signal: null, error: `could not be started (${e.message})` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // A grandchild may still hold the group; it has had its time.
      if (process.platform !== 'win32' && child.pid !== undefined)
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is gone
        }
      done({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: err,
        code,
        signal,
        ...(problem !== undefined ? { error: problem } : {}),
      });
    });
  });
}
