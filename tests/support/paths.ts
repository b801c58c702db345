/**
 * Where things are, and how tests run the two command lines (Skillsmith's and the
 * kitbash reference) as child processes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in tests/support/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Material shared next to the repository: seeds, reference notes, corpora. */
export const sharedRefDir = resolve(repoRoot, '../shared');
/** Data corpora kept next to the repository (e.g. the SkillSpec example specs). */
export const corpusDir = resolve(repoRoot, '../shared/corpus');

export const skillsmithBin = resolve(repoRoot, 'bin/skillsmith.cjs');
export const kitbashEntry = resolve(repoRoot, 'node_modules/kitbash/dist/index.js');

/**
 * Gate a suite on something outside the repository (a tool, a corpus, a binary).
 * Returns true when it is available. When it is not: throws if SKILLSMITH_REQUIRE_ALL
 * is set (CI must run every suite), otherwise returns false so the caller can use
 * `describe.skipIf(!ok)` / `it.skipIf(!ok)`.
 */
export function requireOrSkip(what: string, available: boolean): boolean {
  if (available) return true;
  const required = process.env.SKILLSMITH_REQUIRE_ALL;
  if (required !== undefined && required !== '') {
    throw new Error(`${what} is not available, and SKILLSMITH_REQUIRE_ALL is set, so this suite may not be skipped`);
  }
  return false;
}

export interface RunOptions {
  /** Working directory; defaults to the repository root. */
  cwd?: string;
  /** Text written to the child's stdin. */
  input?: string;
  /** Extra environment variables, merged over the current environment. */
  env?: Record<string, string | undefined>;
  /** Run as this user and group (only possible when the tests run as root). */
  uid?: number;
  gid?: number;
}

export interface RunResult {
  /** The exit code; -1 when the process was killed by a signal. */
  code: number;
  stdout: string;
  stderr: string;
}

function runNodeScript(script: string, args: readonly string[], opts: RunOptions = {}): RunResult {
  const r = spawnSync(process.execPath, [script, ...args], {
    cwd: opts.cwd ?? repoRoot,
    input: opts.input,
    encoding: 'utf8',
    env: { ...process.env, ...opts.env },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
    ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
    ...(opts.gid !== undefined ? { gid: opts.gid } : {}),
  });
  if (r.error) throw r.error;
  const killed = r.status === null;
  return {
    code: killed ? -1 : r.status!,
    stdout: r.stdout,
    stderr: killed ? `${r.stderr}\n[killed by ${r.signal ?? 'a signal'}]` : r.stderr,
  };
}

let testCacheDir: string | undefined;

/**
 * The lint cache folder the CLI gets in tests (unless the caller names one): a temporary
 * folder per test process, so tests never write into the user's cache.
 */
function cacheDirForTests(): string {
  if (testCacheDir === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'skillsmith-test-cache-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    testCacheDir = made;
  }
  return testCacheDir;
}

let testConfigDir: string | undefined;

/**
 * The config folder (runner approvals) the CLI gets in tests unless the caller names one:
 * a temporary folder per test process, so tests never approve anything for the user.
 */
export function configDirForTests(): string {
  if (testConfigDir === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'skillsmith-test-config-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    testConfigDir = made;
  }
  return testConfigDir;
}

function cliOptions(opts?: RunOptions): RunOptions {
  return {
    ...opts,
    env: {
      SKILLSMITH_CACHE_DIR: process.env.SKILLSMITH_CACHE_DIR ?? cacheDirForTests(),
      SKILLSMITH_CONFIG_DIR: process.env.SKILLSMITH_CONFIG_DIR ?? configDirForTests(),
      ...opts?.env,
    },
  };
}

/** Run `node bin/skillsmith.cjs <args>` (from the repository root unless `cwd` is given). */
export function runCli(args: readonly string[], opts?: RunOptions): RunResult {
  return runNodeScript(skillsmithBin, args, cliOptions(opts));
}

/**
 * `runCli` without blocking this process: for a CLI that talks to servers the test runs
 * itself (loopback doubles), which a synchronous spawn would starve. No stdin, no other user.
 */
export function runCliAsync(args: readonly string[], opts?: Pick<RunOptions, 'cwd' | 'env'>): Promise<RunResult> {
  const o = cliOptions(opts);
  const child = spawn(process.execPath, [skillsmithBin, ...args], {
    cwd: o.cwd ?? repoRoot,
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  return new Promise((done, failed) => {
    child.on('error', failed);
    child.on('close', (code, signal) =>
      done({
        code: code ?? -1,
        stdout,
        stderr: code === null ? `${stderr}\n[killed by ${signal ?? 'a signal'}]` : stderr,
      }),
    );
  });
}

/** Run the kitbash reference CLI (`node node_modules/kitbash/dist/index.js <args>`). */
export function runKitbash(args: readonly string[], opts?: RunOptions): RunResult {
  return runNodeScript(kitbashEntry, args, opts);
}
