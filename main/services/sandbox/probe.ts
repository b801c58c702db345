import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bwrapCommand, DEFAULT_BWRAP, probeBwrap } from './bwrap';
import { makeRunCgroup } from './cgroup';
import { execute } from './exec';
import { attachNetwork, missingTool, netnsTools, runResolvConfText, stopPasta, type NetnsTools } from './netns';
import { DEFAULT_LIMITS, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, restrictionRows } from './policy';
import { DEFAULT_SANDBOX_EXEC, probeSandboxExec, sandboxExecCommand } from './seatbelt';
import type { BackendStatus, RestrictionRow, SandboxPolicy, WrappedCommand } from './types';
import type { Surface } from '../../../shared/text/surface';

/** Where the backends live; tests point these at fakes to exercise the failing paths. */
export interface SandboxHost {
  readonly platform: NodeJS.Platform;
  readonly bwrapPath: string;
  readonly sandboxExecPath: string;
  readonly readSysctl?: (path: string) => string | undefined;
  /** pasta, nsenter and ip for `network = true`. */
  readonly netns?: NetnsTools;
}

/**
 * This machine. `SKILLSMITH_BWRAP` / `SKILLSMITH_SANDBOX_EXEC` name another binary (for
 * tests and unusual installs); they can only make the probe fail or pick a different
 * sandbox binary, never switch enforcement off.
 */
export function currentHost(env: Readonly<Record<string, string | undefined>> = process.env): SandboxHost {
  return {
    platform: process.platform,
    bwrapPath: env.SKILLSMITH_BWRAP || DEFAULT_BWRAP,
    sandboxExecPath: env.SKILLSMITH_SANDBOX_EXEC || DEFAULT_SANDBOX_EXEC,
    netns: netnsTools(env),
  };
}

const cache = new Map<string, Promise<BackendStatus>>();

/** Probe the backend for this OS (once per process and host). */
export function probeBackend(
  host: SandboxHost,
  opts: { fresh?: boolean; version?: boolean } = {},
): Promise<BackendStatus> {
  const key = `${host.platform}\0${host.bwrapPath}\0${host.sandboxExecPath}\0${host.netns?.pasta ?? ''}\0${opts.version === true}`;
  if (!opts.fresh) {
    const hit = cache.get(key);
    if (hit) return hit;
  }
  const p = probeUncached(host, opts.version === true);
  cache.set(key, p);
  return p;
}

async function probeUncached(host: SandboxHost, version: boolean): Promise<BackendStatus> {
  if (host.platform === 'linux') {
    const status = await probeBwrap({
      bwrapPath: host.bwrapPath,
      version,
      ...(host.readSysctl ? { readSysctl: host.readSysctl } : {}),
    });
    if (!status.works || !status.path) return status;
    const cg = makeRunCgroup(`skillsmith-probe-${process.pid}`, DEFAULT_LIMITS);
    cg?.remove();
    return {
      ...status,
      cgroup: { pids: cg?.pids === true, memory: cg?.memory === true },
      nprocBinds: process.getuid?.() !== 0,
    };
  }
  if (host.platform === 'darwin') return probeSandboxExec(host.sandboxExecPath);
  return Promise.resolve({
    backend: 'none',
    works: false,
    reason: `no OS sandbox is available for ${host.platform} (bubblewrap on Linux, sandbox-exec on macOS)`,
  });
}

const netCache = new Map<string, Promise<NonNullable<BackendStatus['netns']>>>();

/**
 * The backend status with whether `network = true` can be held here (probed once per
 * process, and only when asked: a run without network never pays for it).
 */
export async function withNetns(status: BackendStatus, host: SandboxHost): Promise<BackendStatus> {
  if (!status.works || status.backend !== 'bubblewrap' || !status.path) return status;
  const tools = host.netns ?? netnsTools();
  const key = `${status.path}\0${tools.pasta}`;
  let p = netCache.get(key);
  if (!p) {
    p = probeNetns(status.path, tools);
    netCache.set(key, p);
  }
  return { ...status, netns: await p };
}

/**
 * Does `network = true` get its own linked network namespace here? A sandbox is built
 * and pasta attached to it, and the script inside must see an interface besides lo.
 */
export async function probeNetns(
  bwrapPath: string,
  tools: NetnsTools,
): Promise<{ works: boolean; path?: string; reason?: string }> {
  const missing = missingTool(tools);
  if (missing) return { works: false, reason: missing };
  // Named like install's temp folders (pid inside), so the sweep removes one a killed process left.
  const work = mkdtempSync(join(tmpdir(), `skillsmith-netprobe-${process.pid}-`));
  try {
    let out = '';
    const r = await execute(
      {
        file: bwrapPath,
        args: [
          '--unshare-all',
          '--die-with-parent',
          '--ro-bind',
          '/',
          '/',
          '--dev',
          '/dev',
          '--proc',
          '/proc',
          '--info-fd',
          '5',
          '--block-fd',
          '6',
          '--',
          '/bin/sh',
          '-c',
          'echo started >&3; tail -n +3 /proc/net/dev | grep -v "^ *lo:" | wc -l',
        ],
        env: { PATH: '/usr/bin:/bin' },
        cwd: '/',
        reportsStrays: true,
        setup: (pid) => attachNetwork(pid, tools, work),
        teardown: () => {
          stopPasta(work, (p) => readFileSync(p, 'utf8'));
          return undefined;
        },
      },
      {
        timeoutMs: 60_000,
        maxOutputBytes: 4096,
        onEvent: (e) => void (e.type === 'output' && e.stream === 'stdout' ? (out += e.text) : undefined),
      },
    );
    if (r.spawnError) return { works: false, path: tools.pasta, reason: r.spawnError };
    return Number(out.trim()) > 0
      ? { works: true, path: tools.pasta }
      : {
          works: false,
          path: tools.pasta,
          reason: 'pasta attached, but the namespace has no link besides its loopback',
        };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The command that runs `argv` confined by a working backend. `workDir` is the run's
 * private host folder (pasta's pid file, the resolver file for `network = true`).
 */
export function wrapCommand(
  status: BackendStatus,
  policy: SandboxPolicy,
  argv: readonly string[],
  workDir?: string,
): WrappedCommand | undefined {
  if (!status.works || !status.path) return undefined;
  if (status.backend === 'bubblewrap') {
    const work = workDir ?? dirname(policy.scratchDir);
    const tools = netnsTools();
    const cg = makeRunCgroup(`skillsmith-run-${randomUUID()}`, policy.limits);
    // The labels promised what the probe found: a cgroup that cannot be made now fails the run closed.
    const cgMissing = (status.cgroup?.pids === true && !cg?.pids) || (status.cgroup?.memory === true && !cg?.memory);
    let resolv: { file: string; target: string } | undefined;
    if (policy.network) {
      resolv = { file: join(work, 'resolv.conf'), target: safeRealpath('/etc/resolv.conf') };
      writeFileSync(resolv.file, runResolvConfText());
    }
    return bwrapCommand(
      policy,
      argv,
      { bwrapPath: status.path, nproc: !cg?.pids && process.getuid?.() !== 0, ...(resolv ? { resolv } : {}) },
      {
        setup: async (pid) => {
          if (cgMissing) return "could not make the run's cgroup, which its process and memory caps were labelled with";
          try {
            cg?.join(pid);
          } catch (e) {
            return `could not move the run into its cgroup (${e instanceof Error ? e.message : String(e)})`;
          }
          return policy.network ? attachNetwork(pid, tools, work) : undefined;
        },
        teardown: () => {
          if (policy.network) stopPasta(work, (p) => readFileSync(p, 'utf8'));
          const hit = cg?.hits();
          cg?.remove();
          return hit?.pids ? 'processes' : hit?.memory ? 'memory' : undefined;
        },
      },
    );
  }
  if (status.backend === 'sandbox-exec') return sandboxExecCommand(policy, argv, status.path);
  return undefined;
}

/** Without an OS sandbox (the explicit `--unconfined` override): the bare argv, cleaned env. */
export function unconfinedCommand(policy: SandboxPolicy, argv: readonly string[]): WrappedCommand {
  const [file, ...args] = argv;
  if (file === undefined) throw new Error('nothing to run');
  return { file, args, env: policy.env, cwd: policy.workspace, reportsStrays: false };
}

export interface ProbeReport {
  readonly platform: NodeJS.Platform;
  readonly status: BackendStatus;
  /** Labels for the strictest policy (no network, no writes), or for the permissions asked about. */
  readonly rows: readonly RestrictionRow[];
  /** The network and filesystem rows as they read for a skill granted network and write, when asked for. */
  readonly granted?: readonly RestrictionRow[];
}

/**
 * What `sandbox probe` prints: the backend and every restriction's label here — for the
 * strictest policy, or for a skill's declared permissions (what an install review shows).
 * Whether `network = true` can be held (a sandbox with pasta attached, ~0.2–0.4 s of child
 * processes) is probed only when the answer is shown: for permissions that declare network,
 * or with `granted`. Every other row reads the same without it, so an install of a skill
 * that declares no network does not pay for it.
 */
export async function probeReport(
  host: SandboxHost,
  opts: {
    fresh?: boolean;
    permissions?: { readonly network: boolean; readonly write: boolean; readonly tools: readonly string[] };
    producesArtifacts?: boolean;
    /** Also the rows for a skill granted network and write (`sandbox probe`). */
    granted?: boolean;
    /**
     * False to leave out the backend's version: no label depends on it, and asking
     * (`bwrap --version`) is one more child process for a caller that shows only labels.
     */
    version?: boolean;
    /** Who words the rows: the command line names the flags of the limits. */
    surface?: Surface;
  } = {},
): Promise<ProbeReport> {
  const perm = opts.permissions ?? { network: false, write: false, tools: [] };
  const backend = await probeBackend(host, {
    ...(opts.fresh !== undefined ? { fresh: opts.fresh } : {}),
    version: opts.version ?? true,
  });
  const status = perm.network || opts.granted ? await withNetns(backend, host) : backend;
  const base = {
    timeoutMs: DEFAULT_TIMEOUT_MS,
    maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
    limits: DEFAULT_LIMITS,
    extraWritable: opts.producesArtifacts ? ['.kitbash/artifacts'] : [],
    env: {},
  };
  const rows = restrictionRows(
    status,
    { ...base, network: perm.network, write: perm.write, tools: perm.tools },
    false,
    opts.surface,
  );
  if (!opts.granted) return { platform: host.platform, status, rows };
  const granted = restrictionRows(
    status,
    { ...base, network: true, write: true, tools: [] },
    false,
    opts.surface,
  ).filter((r) => r.id === 'network' || r.id === 'filesystem');
  return { platform: host.platform, status, rows, granted };
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
