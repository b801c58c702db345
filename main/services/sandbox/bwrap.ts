import { existsSync, readFileSync } from 'node:fs';
import { capture, firstLines } from './process';
import { seccompSupported, unixSocketFilter } from './seccomp';
import type { BackendStatus, SandboxPolicy, WrappedCommand } from './types';

export const DEFAULT_BWRAP = '/usr/bin/bwrap';

/**
 * Runs inside the sandbox as the script's parent: says it started (so a sandbox that
 * could not be set up is told apart from a script that failed), runs the script, counts the
 * processes still alive in the PID namespace (anything but PID 1 and itself) and reports
 * them on fd 3. When it exits, bwrap's PID 1 exits and the kernel kills the rest.
 */
export const SUPERVISOR = [
  'echo started >&3 2>/dev/null',
  '"$@"; rc=$?',
  'n=0; for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = 1 ] || [ "$p" = "$$" ] || n=$((n+1)); done',
  '[ "$n" -gt 0 ] && echo "stray $n" >&3 2>/dev/null',
  'exit $rc',
].join('\n');

export interface BwrapOptions {
  readonly bwrapPath?: string;
  /** CPU architecture (process.arch) for the no-network seccomp filter; unsupported → no filter. */
  readonly arch?: string;
  /** Whether a path exists on the host (a hidden home that does not exist needs no cover). */
  readonly exists?: (path: string) => boolean;
}

/**
 * The bwrap argv for one run. Mount order matters: later mounts cover earlier ones, so
 * the read-only root comes first, then the private /tmp and hidden homes, then the
 * workspace, the read-only islands inside it, the skill, and the per-run folders; homes
 * are remounted read-only last, after every mount point inside them was created.
 */
export function bwrapArgs(policy: SandboxPolicy, argv: readonly string[], opts: BwrapOptions = {}): string[] {
  const exists = opts.exists ?? existsSync;
  const a: string[] = ['--unshare-all'];
  if (policy.network) a.push('--share-net');
  a.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  a.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  // Without network, host Unix sockets (docker, dbus, agents) must be out of reach too;
  // with network, /run stays (read-only) because resolv.conf often points into it.
  if (!policy.network && exists('/run')) a.push('--tmpfs', '/run');
  const homes = policy.hiddenHomes.filter((h) => exists(h));
  for (const h of homes) a.push('--tmpfs', h);
  for (const p of policy.extraReadable ?? []) a.push('--ro-bind-try', p, p);
  a.push(policy.write ? '--bind' : '--ro-bind', policy.workspace, policy.workspace);
  for (const p of policy.readOnlyInWorkspace) a.push('--ro-bind-try', p, p);
  for (const p of policy.extraWritable) a.push('--bind', p, p);
  a.push('--ro-bind', policy.skillDir, policy.skillDir);
  a.push('--bind', policy.scratchDir, policy.scratchDir, '--bind', policy.homeDir, policy.homeDir);
  for (const h of homes) a.push('--remount-ro', h);
  a.push('--clearenv');
  for (const [k, v] of Object.entries(policy.env)) a.push('--setenv', k, v);
  if (withSeccomp(policy, opts)) a.push('--seccomp', '4');
  a.push('--chdir', policy.workspace, '--', '/bin/sh', '-c', SUPERVISOR, 'skillsmith-run', ...argv);
  return a;
}

/**
 * `--die-with-parent` covers bwrap itself too: when the process that spawned it dies (even
 * by SIGKILL), bwrap and everything in the sandbox are killed.
 */
export function bwrapCommand(policy: SandboxPolicy, argv: readonly string[], opts: BwrapOptions = {}): WrappedCommand {
  // bwrap itself (and its PID 1 inside) gets the run's environment, never the parent's,
  // so /proc/1/environ inside holds nothing the script may not see.
  const bwrap = opts.bwrapPath ?? DEFAULT_BWRAP;
  const args = bwrapArgs(policy, argv, opts);
  const fd4 = withSeccomp(policy, opts) ? { fd4: unixSocketFilter(opts.arch ?? process.arch) } : {};
  return { file: bwrap, args, env: policy.env, cwd: policy.workspace, reportsStrays: true, ...fd4 };
}

function withSeccomp(policy: SandboxPolicy, opts: BwrapOptions): boolean {
  return !policy.network && seccompSupported(opts.arch ?? process.arch);
}

export interface ProbeDeps {
  readonly bwrapPath?: string;
  /** Reads a /proc/sys file; undefined when absent. */
  readonly readSysctl?: (path: string) => string | undefined;
  readonly timeoutMs?: number;
  /** CPU architecture for the seccomp filter (process.arch). */
  readonly arch?: string;
  /** Also ask `bwrap --version` (one more process; `sandbox probe` shows it, a run does not need it). */
  readonly version?: boolean;
}

const USERNS = /uid map|gid map|setgroups|RTM_NEWADDR|No permissions to creat|new namespace|Operation not permitted|Permission denied|unshare/i;

/**
 * Does bubblewrap work here? Not "is the binary there": a trivial command is run in the
 * same kind of sandbox a skill gets (every namespace, no capabilities), because a user
 * namespace can be forbidden even when bwrap exists.
 */
export async function probeBwrap(deps: ProbeDeps = {}): Promise<BackendStatus> {
  const path = deps.bwrapPath ?? DEFAULT_BWRAP;
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin' };
  const timeoutMs = deps.timeoutMs ?? 10_000;
  // The no-network seccomp filter goes in too, so a kernel without seccomp fails here, not in a run.
  const arch = deps.arch ?? process.arch;
  const filter = seccompSupported(arch) ? unixSocketFilter(arch) : undefined;
  const run = await capture(
    path,
    ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--clearenv', ...(filter ? ['--seccomp', '4'] : []), '--', '/bin/sh', '-c', 'echo skillsmith-probe-ok'],
    { env, timeoutMs, ...(filter ? { fd4: filter } : {}) },
  );
  if (run.spawnError) {
    const code = run.spawnError.code;
    const reason = code === 'ENOENT' ? `bubblewrap is not installed (no ${path})` : code === 'EACCES' ? `${path} is not executable` : `${path} could not be started (${code ?? run.spawnError.message})`;
    return { backend: 'bubblewrap', works: false, path, reason };
  }
  if (run.timedOut) return { backend: 'bubblewrap', works: false, path, reason: `a trivial sandboxed command did not finish within ${timeoutMs / 1000} s` };
  if (run.code === 0 && run.stdout.trim() === 'skillsmith-probe-ok') {
    if (deps.version !== true) return { backend: 'bubblewrap', works: true, path };
    const v = await capture(path, ['--version'], { env, timeoutMs });
    const version = /(\d+\.\d+(?:\.\d+)?)/.exec(v.stdout)?.[1];
    return { backend: 'bubblewrap', works: true, path, ...(version ? { version } : {}) };
  }
  const detail = firstLines(run.stderr || run.stdout) || `exit ${String(run.code)}`;
  if (/seccomp/i.test(run.stderr)) return { backend: 'bubblewrap', works: false, path, reason: 'bwrap cannot install the seccomp filter that refuses Unix-socket connects (a kernel without seccomp?)', detail };
  if (USERNS.test(run.stderr)) return { backend: 'bubblewrap', works: false, path, reason: usernsCause(deps.readSysctl ?? readSysctl), detail };
  return { backend: 'bubblewrap', works: false, path, reason: `a trivial sandboxed command failed (exit ${String(run.code)})`, detail };
}

/** Why user namespaces are refused, from the kernel knobs that usually cause it. */
export function usernsCause(read: (path: string) => string | undefined): string {
  const base = 'bwrap cannot create a user namespace here';
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return `${base}: kernel.apparmor_restrict_unprivileged_userns = 1 (Ubuntu 23.10+/24.04) and no AppArmor profile allows bwrap`;
  }
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') return `${base}: kernel.unprivileged_userns_clone = 0`;
  if (read('/proc/sys/user/max_user_namespaces') === '0') return `${base}: user.max_user_namespaces = 0`;
  return `${base} (a container or security policy forbids it)`;
}

function readSysctl(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}
