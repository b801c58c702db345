import { join } from 'node:path';
import type { Manifest } from '../../../shared/ksf/model';
import { LABEL, REQUIRED, RESTRICTIONS, type BackendId, type EnforcementLabel, type RestrictionId, type RestrictionRow, type SandboxPolicy } from './types';

/** Variables a run inherits from the parent when set; everything else is dropped. */
export const ENV_ALLOWLIST = ['PATH', 'LANG', 'TERM'] as const;
/** A PATH for runs whose parent has none. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * Project paths that stay read-only even with `write = true` (when they exist): the
 * installed skills and the lock and policy that govern them, and the places whose content
 * runs later outside any sandbox — git hooks and config, agent and editor settings
 * (hooks, tasks), direnv's .envrc.
 */
export const PROTECTED_IN_WORKSPACE = ['.kitbash', 'kitbash.lock', 'kitbash.toml', '.git', '.claude', '.cursor', '.codex', '.gemini', '.vscode', '.envrc'] as const;

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

export interface PolicyInput {
  readonly manifest: Pick<Manifest, 'permissions' | 'artifacts'>;
  readonly workspace: string;
  readonly skillDir: string;
  readonly scratchDir: string;
  readonly homeDir: string;
  /** The parent's environment (only the allowlist is read from it). */
  readonly parentEnv: Readonly<Record<string, string | undefined>>;
  /** Variables the run passes explicitly (`--env NAME=VALUE`), over everything else. */
  readonly passEnv?: Readonly<Record<string, string>>;
  /** The invoking user's home folders to hide (parent $HOME, the account's home). */
  readonly hiddenHomes: readonly string[];
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
}

/**
 * The manifest's permissions as a sandbox policy. Omitted permissions are the most
 * restrictive reading (KSF): no network, no writes; the skill's folder is never writable;
 * a skill that produces artifacts may write `.kitbash/artifacts/` and nothing else.
 */
export function policyFromManifest(input: PolicyInput): SandboxPolicy {
  const { manifest, workspace } = input;
  const env: Record<string, string> = {};
  for (const k of ENV_ALLOWLIST) {
    const v = input.parentEnv[k];
    if (v !== undefined) env[k] = v;
  }
  env.PATH ??= FALLBACK_PATH;
  env.HOME = input.homeDir;
  env.TMPDIR = input.scratchDir;
  env.KITBASH_PROJECT_ROOT = workspace;
  env.KITBASH_SKILL_DIR = input.skillDir;
  env.KITBASH_ARTIFACTS_DIR = join(workspace, '.kitbash', 'artifacts');
  Object.assign(env, input.passEnv ?? {});
  return {
    network: manifest.permissions.network,
    write: manifest.permissions.write,
    tools: manifest.permissions.tools,
    workspace,
    skillDir: input.skillDir,
    readOnlyInWorkspace: PROTECTED_IN_WORKSPACE.map((p) => join(workspace, p)),
    extraWritable: manifest.artifacts.produces.length > 0 ? [join(workspace, '.kitbash', 'artifacts')] : [],
    scratchDir: input.scratchDir,
    homeDir: input.homeDir,
    hiddenHomes: [...new Set(input.hiddenHomes.filter((h) => h !== '' && h !== '/'))],
    env,
    timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxOutputBytes: input.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
  };
}

/** What each restriction holds the run to, in words. */
export function describeRestriction(id: RestrictionId, p: Pick<SandboxPolicy, 'network' | 'write' | 'tools' | 'timeoutMs' | 'maxOutputBytes' | 'extraWritable' | 'env'>): string {
  switch (id) {
    case 'network':
      return p.network ? 'network allowed (permissions.network = true)' : 'no network — a private namespace with only its own loopback, and no Unix-socket connects';
    case 'filesystem': {
      const extra = p.extraWritable.length ? ' and .kitbash/artifacts/' : '';
      return p.write
        ? `the project workspace writable (permissions.write = true)${extra}, except ${PROTECTED_IN_WORKSPACE.slice(2).join(', ')}; everything else read-only`
        : `everything read-only except a per-run scratch folder${extra}`;
    }
    case 'skill-folder':
      return "the skill's own folder, every installed skill (.kitbash/) and kitbash.lock read-only";
    case 'home':
      return '$HOME is an empty private folder — no ~/.ssh, tokens or agent configs';
    case 'environment': {
      const extra = Object.keys(p.env).filter((k) => !(ENV_ALLOWLIST as readonly string[]).includes(k) && !k.startsWith('KITBASH_') && k !== 'HOME' && k !== 'TMPDIR');
      return `cleared except ${ENV_ALLOWLIST.join(', ')}, HOME, TMPDIR, KITBASH_*${extra.length ? ` and ${extra.join(', ')}` : ''}`;
    }
    case 'processes':
      return `new session; killed with the parent; anything left when the script exits is killed; ${formatSeconds(p.timeoutMs)} timeout kills the tree`;
    case 'privileges':
      return 'no new privileges (setuid ignored), every capability dropped';
    case 'output':
      return `stdout and stderr capped at ${formatBytes(p.maxOutputBytes)} each (the rest is dropped and reported)`;
    case 'tools':
      return p.tools.length ? `permissions.tools = [${p.tools.map((t) => JSON.stringify(t)).join(', ')}] (a grammar no OS mechanism reads)` : 'permissions.tools = [] (a grammar no OS mechanism reads)';
  }
}

/** Which rows a working backend holds. */
const ENFORCES: Readonly<Record<BackendId, ReadonlySet<RestrictionId>>> = {
  bubblewrap: new Set(['network', 'filesystem', 'skill-folder', 'home', 'environment', 'processes', 'privileges']),
  // No PID namespace on macOS: a grandchild that calls setsid() escapes the group kill.
  'sandbox-exec': new Set(['network', 'filesystem', 'skill-folder', 'home', 'environment', 'privileges']),
  none: new Set(),
};

/**
 * Each restriction with its label on this machine. With `unconfined` nothing is held by
 * an OS sandbox, so every OS row is advisory whatever the backend could do.
 */
export function restrictionRows(
  backend: { backend: BackendId; works: boolean },
  p: Parameters<typeof describeRestriction>[1],
  unconfined = false,
): RestrictionRow[] {
  const osLabel: EnforcementLabel | undefined = backend.works && !unconfined && backend.backend !== 'none' ? LABEL[backend.backend] : undefined;
  return RESTRICTIONS.map((id) => {
    let label: EnforcementLabel;
    if (id === 'output') label = LABEL.runner;
    else if (id === 'tools') label = LABEL.advisory;
    else label = osLabel && ENFORCES[backend.backend].has(id) ? osLabel : LABEL.advisory;
    return { id, what: describeRestriction(id, p), label, required: REQUIRED.has(id) };
  });
}

/** Required rows this machine cannot hold: a run refuses to start while any remain. */
export function unenforced(rows: readonly RestrictionRow[]): RestrictionRow[] {
  return rows.filter((r) => r.required && r.label === LABEL.advisory);
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
