import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { capture, firstLines } from './process';
import { seccompSupported, unixSocketFilter } from './seccomp';
import type { BackendStatus, LimitHit, RunLimits, SandboxPolicy, WrappedCommand } from './types';

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

/**
 * The rlimits the supervisor sets before it starts the script (they are inherited). A cap
 * above an existing hard limit is lowered to it (an unprivileged user cannot raise one).
 * The CPU-time hard limit sits 5 s above the soft one, so hitting the cap is a SIGXCPU the
 * run can be told apart by (a hard limit alone is an anonymous SIGKILL).
 */
export function ulimitLine(l: RunLimits, nproc: boolean): string {
  const kib = Math.max(1, Math.floor(l.memoryBytes / 1024));
  // `lim both|soft -X N`: set the limit (both, or only the soft one) to N or the hard limit, whichever is lower.
  const fit =
    'h=$(ulimit -H $2); v=$3; [ "$h" = unlimited ] || [ "$h" -ge "$v" ] || v=$h; if [ $1 = soft ]; then ulimit -S $2 "$v"; else ulimit $2 "$v"; fi';
  const caps = [
    `lim both -n ${l.openFiles}`,
    `lim both -t ${l.cpuSeconds + 5}`,
    `lim soft -t ${l.cpuSeconds}`,
    `lim both -d ${kib}`,
    ...(nproc ? [`lim both -u ${l.processes}`] : []),
  ];
  return `lim() { ${fit}; }; ${caps.join(' && ')} || { echo 'skillsmith: could not set the run limits' >&2; exit 125; }`;
}

/**
 * What a script can read: the system folders programs need, /etc without its secrets,
 * and nothing else of the host (the project, the skill and private folders come on top).
 */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/etc'] as const;
/** Files under /etc a script never needs: password hashes, host private keys. */
export const ETC_SECRETS = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/security/opasswd',
] as const;
export const ETC_SECRET_DIRS = ['/etc/ssl/private', '/etc/sudoers.d'] as const;

export interface BwrapOptions {
  readonly bwrapPath?: string;
  /** CPU architecture (process.arch) for the seccomp filter; unsupported → no filter. */
  readonly arch?: string;
  /** Whether a path exists on the host. */
  readonly exists?: (path: string) => boolean;
  /** Whether a path is a symlink on the host, and where it points. */
  readonly readlink?: (path: string) => string | undefined;
  /** Files in a host folder (for the ssh host keys under /etc/ssh). */
  readonly list?: (dir: string) => readonly string[];
  /** The generated resolv.conf and where the host's resolv.conf really is (network = true). */
  readonly resolv?: { readonly file: string; readonly target: string };
  /** Whether RLIMIT_NPROC binds (not for root, not when a pids cgroup caps the run). */
  readonly nproc?: boolean;
}

/**
 * The bwrap argv for one run. Mount order matters: later mounts cover earlier ones. The
 * root is an empty tmpfs holding only the system folders (read-only), /etc's secrets
 * covered, size-capped private /tmp, TMPDIR and HOME, the project read-only (for `write`,
 * its staged copy writable in its place, the protected top-level entries read-only over
 * it), and the skill. bwrap reports its child's PID on fd 5 and waits for
 * fd 6, so a cgroup and the network namespace's link are in place before the script runs.
 */
export function bwrapArgs(policy: SandboxPolicy, argv: readonly string[], opts: BwrapOptions = {}): string[] {
  const exists = opts.exists ?? existsSync;
  const readlink = opts.readlink ?? safeReadlink;
  const list = opts.list ?? safeList;
  const size = String(policy.limits.scratchBytes);
  const a: string[] = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  for (const p of systemPaths(policy.env.PATH ?? '', policy.hiddenHomes)) {
    if (!exists(p)) continue;
    const link = readlink(p);
    if (link !== undefined && SYSTEM_PATHS.includes(p as (typeof SYSTEM_PATHS)[number])) a.push('--symlink', link, p);
    else a.push('--ro-bind', p, p);
  }
  a.push('--dev', '/dev', '--proc', '/proc', '--size', size, '--tmpfs', '/tmp');
  for (const f of ETC_SECRETS) if (exists(f)) a.push('--ro-bind', '/dev/null', f);
  for (const d of ETC_SECRET_DIRS) if (exists(d)) a.push('--tmpfs', d);
  for (const f of list('/etc/ssh')) if (/^ssh_host_.*_key$/.test(f)) a.push('--ro-bind', '/dev/null', `/etc/ssh/${f}`);
  if (policy.network && opts.resolv) a.push('--ro-bind', opts.resolv.file, opts.resolv.target);
  // Declared extra reads (an eval runner's executable and config): read-only, only if present.
  for (const p of policy.extraReadable ?? []) if (exists(p)) a.push('--ro-bind', p, p);
  a.push('--ro-bind', policy.workspace, policy.workspace);
  // Outside the project, so never under a writable bind: read-only whatever `write` says.
  for (const p of policy.enclosingGit ?? []) if (exists(p)) a.push('--ro-bind', p, p);
  for (const p of policy.writableEntries) a.push('--bind', p, p);
  // write = true: the run sees its staged copy at the project's path; what it changes there
  // is applied afterwards by the runner's rules. The protected entries it sees are the real ones, read-only.
  if (policy.stage) {
    a.push('--bind', policy.stage.dir, policy.workspace);
    for (const p of policy.stage.bound) a.push('--ro-bind', p, p);
  }
  for (const p of policy.extraWritable) a.push('--bind', p, p);
  a.push('--ro-bind', policy.skillDir, policy.skillDir);
  a.push('--size', size, '--tmpfs', policy.scratchDir, '--size', size, '--tmpfs', policy.homeDir);
  // A bind's source is read from the host's root, not through the tmpfs just mounted there.
  for (const rel of policy.homeFiles ?? []) a.push('--bind', join(policy.homeDir, rel), join(policy.homeDir, rel));
  // bwrap's own root is a tmpfs with no size cap; once every mount point exists, it goes read-only.
  a.push('--remount-ro', '/');
  a.push('--clearenv');
  for (const [k, v] of Object.entries(policy.env)) a.push('--setenv', k, v);
  if (seccompSupported(opts.arch ?? process.arch)) a.push('--seccomp', '4');
  a.push('--info-fd', '5', '--block-fd', '6');
  const supervisor = `${ulimitLine(policy.limits, opts.nproc ?? false)}\n${SUPERVISOR}`;
  a.push('--chdir', policy.workspace, '--', '/bin/sh', '-c', supervisor, 'skillsmith-run', ...argv);
  return a;
}

/**
 * The system folders, then each PATH folder outside them (a tool under /usr/local or a
 * version manager's bin), unless it lies in a home folder, /root, /run or /tmp.
 */
export function systemPaths(path: string, hiddenHomes: readonly string[]): string[] {
  const out: string[] = [...SYSTEM_PATHS];
  const covered = (p: string): boolean => out.some((s) => p === s || p.startsWith(`${s}/`));
  const denied = [
    '/root',
    '/home',
    '/run',
    '/var/run',
    '/tmp',
    '/var/tmp',
    '/srv',
    '/mnt',
    '/media',
    '/proc',
    '/sys',
    '/dev',
    ...hiddenHomes,
  ];
  for (const p of path.split(':')) {
    if (!p.startsWith('/') || p.includes('/../') || p.endsWith('/..')) continue;
    if (covered(p) || denied.some((d) => p === d || p.startsWith(`${d}/`))) continue;
    out.push(p);
  }
  return out;
}

export interface CommandHooks {
  readonly setup?: (childPid: number) => Promise<string | undefined>;
  readonly teardown?: () => LimitHit | undefined;
}

/**
 * `--die-with-parent` covers bwrap itself too: when the process that spawned it dies (even
 * by SIGKILL), bwrap and everything in the sandbox are killed.
 */
export function bwrapCommand(
  policy: SandboxPolicy,
  argv: readonly string[],
  opts: BwrapOptions = {},
  hooks: CommandHooks = {},
): WrappedCommand {
  // bwrap itself (and its PID 1 inside) gets the run's environment, never the parent's,
  // so /proc/1/environ inside holds nothing the script may not see.
  const bwrap = opts.bwrapPath ?? DEFAULT_BWRAP;
  const args = bwrapArgs(policy, argv, opts);
  const arch = opts.arch ?? process.arch;
  const fd4 = seccompSupported(arch) ? { fd4: unixSocketFilter(arch) } : {};
  return {
    file: bwrap,
    args,
    env: policy.env,
    cwd: policy.workspace,
    reportsStrays: true,
    ...fd4,
    setup: hooks.setup ?? (() => Promise.resolve(undefined)),
    ...(hooks.teardown ? { teardown: hooks.teardown } : {}),
  };
}

function safeReadlink(p: string): string | undefined {
  try {
    return lstatSync(p).isSymbolicLink() ? readlinkSync(p) : undefined;
  } catch {
    return undefined;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
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

const USERNS =
  /uid map|gid map|setgroups|RTM_NEWADDR|No permissions to creat|new namespace|Operation not permitted|Permission denied|unshare/i;

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
    [
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--clearenv',
      ...(filter ? ['--seccomp', '4'] : []),
      '--',
      '/bin/sh',
      '-c',
      'echo skillsmith-probe-ok',
    ],
    { env, timeoutMs, ...(filter ? { fd4: filter } : {}) },
  );
  if (run.spawnError) {
    const code = run.spawnError.code;
    const reason =
      code === 'ENOENT'
        ? `bubblewrap is not installed (no ${path})`
        : code === 'EACCES'
          ? `${path} is not executable`
          : `${path} could not be started (${code ?? run.spawnError.message})`;
    return { backend: 'bubblewrap', works: false, path, reason };
  }
  if (run.timedOut)
    return {
      backend: 'bubblewrap',
      works: false,
      path,
      reason: `a trivial sandboxed command did not finish within ${timeoutMs / 1000} s`,
    };
  if (run.code === 0 && run.stdout.trim() === 'skillsmith-probe-ok') {
    if (deps.version !== true) return { backend: 'bubblewrap', works: true, path };
    const v = await capture(path, ['--version'], { env, timeoutMs });
    const version = /(\d+\.\d+(?:\.\d+)?)/.exec(v.stdout)?.[1];
    return { backend: 'bubblewrap', works: true, path, ...(version ? { version } : {}) };
  }
  const detail = firstLines(run.stderr || run.stdout) || `exit ${String(run.code)}`;
  if (/seccomp/i.test(run.stderr))
    return {
      backend: 'bubblewrap',
      works: false,
      path,
      reason: 'bwrap cannot install the seccomp filter that refuses Unix-socket connects (a kernel without seccomp?)',
      detail,
    };
  if (USERNS.test(run.stderr))
    return { backend: 'bubblewrap', works: false, path, reason: usernsCause(deps.readSysctl ?? readSysctl), detail };
  return {
    backend: 'bubblewrap',
    works: false,
    path,
    reason: `a trivial sandboxed command failed (exit ${String(run.code)})`,
    detail,
  };
}

/** Why user namespaces are refused, from the kernel knobs that usually cause it. */
export function usernsCause(read: (path: string) => string | undefined): string {
  const base = 'bwrap cannot create a user namespace here';
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return `${base}: kernel.apparmor_restrict_unprivileged_userns = 1 (Ubuntu 23.10+/24.04) and no AppArmor profile allows bwrap`;
  }
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0')
    return `${base}: kernel.unprivileged_userns_clone = 0`;
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
