import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { makeTempDir } from './temp';
import { CodedError } from '../../../shared/result';

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the system git without a prompt or a pager; missing git is a clear one-line error. */
export function git(args: readonly string[], cwd?: string): GitResult {
  const r = spawnSync('git', [...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    // Never prompt (a hidden prompt would hang the install), never page, messages in English.
    env: {
      ...process.env,
      GIT_TERMINAL_PROMPT: '0',
      GIT_ASKPASS: '',
      SSH_ASKPASS: '',
      GIT_PAGER: 'cat',
      LC_ALL: 'C',
      GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes',
    },
  });
  if (r.error) {
    if ((r.error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CodedError(
        'invalid-input',
        'git is required to fetch git sources but was not found on PATH — install git, or use a local source: file:./path/to/skill',
      );
    }
    throw new CodedError('invalid-input', `git failed to run: ${r.error.message}`);
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh private clone; the caller must `rmSync` `dir` (cloneRepo's callers use try/finally). */
export interface Clone {
  readonly dir: string;
  readonly commit: string;
  dispose(): void;
}

/**
 * Clone `url` into a new temp folder: shallow without a ref, full then `checkout <ref>`
 * with one (`full` keeps history and tags, for catalogs). `label` names the repository
 * in messages. The folder is removed on every failure.
 */
export function cloneRepo(url: string, ref: string | undefined, label: string, full = false): Clone {
  // A ref is never an option: `checkout --orphan=…` and friends are not refs.
  if (ref !== undefined && (ref.startsWith('-') || /[\s\0]/.test(ref)))
    throw new CodedError('invalid-input', `ref "${ref}" is not a valid branch, tag, or commit name`);
  const dir = makeTempDir('clone');
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    const args = ['clone', '--quiet', '--no-hardlinks', ...(ref || full ? [] : ['--depth', '1']), '--', url, dir];
    const c = git(args);
    if (c.code !== 0) {
      throw new CodedError(
        'invalid-input',
        `could not clone ${label} — check that the repository exists, the URL is spelled right, and it is reachable (${firstLine(c.stderr)})`,
      );
    }
    if (ref) {
      const co = git(['-C', dir, '-c', 'advice.detachedHead=false', 'checkout', '--quiet', ref, '--']);
      if (co.code !== 0)
        throw new CodedError('invalid-input', `ref "${ref}" not found in ${label} (not a branch, tag, or commit)`);
    }
    const head = git(['-C', dir, 'rev-parse', 'HEAD']);
    if (head.code !== 0)
      throw new CodedError(
        'invalid-input',
        `could not read the checked-out commit of ${label} (${firstLine(head.stderr)})`,
      );
    return { dir, commit: head.stdout.trim(), dispose };
  } catch (e) {
    dispose();
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
