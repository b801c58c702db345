import { bwrapCommand, DEFAULT_BWRAP, probeBwrap } from './bwrap';
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, restrictionRows } from './policy';
import { DEFAULT_SANDBOX_EXEC, probeSandboxExec, sandboxExecCommand } from './seatbelt';
import type { BackendStatus, RestrictionRow, SandboxPolicy, WrappedCommand } from './types';

/** Where the backends live; tests point these at fakes to exercise the failing paths. */
export interface SandboxHost {
  readonly platform: NodeJS.Platform;
  readonly bwrapPath: string;
  readonly sandboxExecPath: string;
  readonly readSysctl?: (path: string) => string | undefined;
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
  };
}

const cache = new Map<string, Promise<BackendStatus>>();

/** Probe the backend for this OS (once per process and host). */
export function probeBackend(host: SandboxHost, opts: { fresh?: boolean; version?: boolean } = {}): Promise<BackendStatus> {
  const key = `${host.platform}\0${host.bwrapPath}\0${host.sandboxExecPath}\0${opts.version === true}`;
  if (!opts.fresh) {
    const hit = cache.get(key);
    if (hit) return hit;
  }
  const p = probeUncached(host, opts.version === true);
  cache.set(key, p);
  return p;
}

function probeUncached(host: SandboxHost, version: boolean): Promise<BackendStatus> {
  if (host.platform === 'linux') return probeBwrap({ bwrapPath: host.bwrapPath, version, ...(host.readSysctl ? { readSysctl: host.readSysctl } : {}) });
  if (host.platform === 'darwin') return probeSandboxExec(host.sandboxExecPath);
  return Promise.resolve({ backend: 'none', works: false, reason: `no OS sandbox is available for ${host.platform} (bubblewrap on Linux, sandbox-exec on macOS)` });
}

/** The command that runs `argv` confined by a working backend. */
export function wrapCommand(status: BackendStatus, policy: SandboxPolicy, argv: readonly string[]): WrappedCommand | undefined {
  if (!status.works || !status.path) return undefined;
  if (status.backend === 'bubblewrap') return bwrapCommand(policy, argv, { bwrapPath: status.path });
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
  /** Labels for the strictest policy (no network, no writes). */
  readonly rows: readonly RestrictionRow[];
}

/**
 * What `sandbox probe` prints: the backend and every restriction's label here — for the
 * strictest policy, or for a skill's declared permissions (what an install review shows).
 */
export async function probeReport(
  host: SandboxHost,
  opts: { fresh?: boolean; permissions?: { readonly network: boolean; readonly write: boolean; readonly tools: readonly string[] }; producesArtifacts?: boolean } = {},
): Promise<ProbeReport> {
  const status = await probeBackend(host, { ...(opts.fresh !== undefined ? { fresh: opts.fresh } : {}), version: true });
  const perm = opts.permissions ?? { network: false, write: false, tools: [] };
  const rows = restrictionRows(status, {
    network: perm.network,
    write: perm.write,
    tools: perm.tools,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
    extraWritable: opts.producesArtifacts ? ['.kitbash/artifacts'] : [],
    env: {},
  });
  return { platform: host.platform, status, rows };
}
