import { spawn } from 'node:child_process';
import { discardTempDir, makeTempDir } from './temp';
import { CodedError } from '../../../shared/result';

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const TIMEOUT_MS = 120_000;
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Run the system git without a prompt or a pager; missing git is a clear one-line error.
 * `baseEnv` replaces the inherited environment for a caller that must keep the user's git
 * configuration out (an eval trial's repository). Asynchronous: a clone can take minutes,
 * and the app's main thread must keep serving the window meanwhile.
 */
export function git(
  args: readonly string[],
  cwd?: string,
  baseEnv: NodeJS.ProcessEnv = process.env,
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      ...(cwd !== undefined ? { cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Never prompt (a hidden prompt would hang the install), never page, messages in English.
      env: {
        ...baseEnv,
        GIT_TERMINAL_PROMPT: '0',
        GIT_ASKPASS: '',
        SSH_ASKPASS: '',
        GIT_PAGER: 'cat',
        LC_ALL: 'C',
        GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes',
      },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failed: Error | undefined;
    const collect = (into: Buffer[]) => (d: Buffer) => {
      size += d.length;
      if (size > MAX_OUTPUT) {
        failed ??= new CodedError(
          'invalid-input',
          `git ${args[0] ?? ''} printed more than ${MAX_OUTPUT} bytes — stopped`,
        );
        child.kill('SIGKILL');
      } else into.push(d);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    const timer = setTimeout(() => {
      failed ??= new CodedError(
        'invalid-input',
        `git ${args[0] ?? ''} took longer than ${TIMEOUT_MS / 1000} s — stopped`,
      );
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        e.code === 'ENOENT'
          ? new CodedError(
              'invalid-input',
              'git is required to fetch git sources but was not found on PATH — install git, or use a local source: file:./path/to/skill',
            )
          : new CodedError('invalid-input', `git failed to run: ${e.message}`),
      );
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (failed) return reject(failed);
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** A fresh private clone; the caller must dispose it (cloneRepo's callers use try/finally). */
export interface Clone {
  readonly dir: string;
  readonly commit: string;
  dispose(): Promise<void>;
}

/**
 * Clone `url` into a new temp folder: shallow without a ref, full then `checkout <ref>`
 * with one (`full` keeps history and tags, for catalogs). `label` names the repository
 * in messages. The folder is removed on every failure.
 */
export async function cloneRepo(url: string, ref: string | undefined, label: string, full = false): Promise<Clone> {
  // A ref is never an option: `checkout --orphan=…` and friends are not refs.
  if (ref !== undefined && (ref.startsWith('-') || /[\s\0]/.test(ref)))
    throw new CodedError('invalid-input', `ref "${ref}" is not a valid branch, tag, or commit name`);
  const dir = await makeTempDir('clone');
  let gone: Promise<void> | undefined;
  const dispose = () => (gone ??= discardTempDir(dir, 'clone'));
  try {
    const args = ['clone', '--quiet', '--no-hardlinks', ...(ref || full ? [] : ['--depth', '1']), '--', url, dir];
    const c = await git(args);
    if (c.code !== 0) {
      throw new CodedError(
        'invalid-input',
        `could not clone ${label} — check that the repository exists, the URL is spelled right, and it is reachable (${firstLine(c.stderr)})`,
      );
    }
    if (ref) {
      const co = await git(['-C', dir, '-c', 'advice.detachedHead=false', 'checkout', '--quiet', ref, '--']);
      if (co.code !== 0)
        throw new CodedError('invalid-input', `ref "${ref}" not found in ${label} (not a branch, tag, or commit)`);
    }
    const head = await git(['-C', dir, 'rev-parse', 'HEAD']);
    if (head.code !== 0)
      throw new CodedError(
        'invalid-input',
        `could not read the checked-out commit of ${label} (${firstLine(head.stderr)})`,
      );
    return { dir, commit: head.stdout.trim(), dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

export function firstLine(s: string): string {
  const l = s
    .split('\n')
    .map((x) => x.trim())
    .find((x) => x !== '');
  return (l ?? 'no output').replace(/^fatal:\s*/, '');
}
