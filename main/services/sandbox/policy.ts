import { join } from 'node:path';
import type { Manifest } from '../../../shared/ksf/model';
import { formatBytes } from '../../../shared/text/format';
import type { Surface } from '../../../shared/text/surface';
import { protectedNames } from '../../../shared/sandbox/protected';
import {
  LABEL,
  REQUIRED,
  RESTRICTIONS,
  type BackendId,
  type BackendStatus,
  type EnforcementLabel,
  type RestrictionId,
  type RestrictionRow,
  type RunLimits,
  type SandboxPolicy,
} from './types';

/** Variables a run inherits from the parent when set; everything else is dropped. */
export const ENV_ALLOWLIST = ['PATH', 'LANG', 'TERM'] as const;
/** A PATH for runs whose parent has none. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
const MIB = 1024 * 1024;
export const DEFAULT_LIMITS: RunLimits = {
  processes: 256,
  openFiles: 1024,
  cpuSeconds: 300,
  memoryBytes: 2048 * MIB,
  scratchBytes: 256 * MIB,
};

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
  readonly limits?: Partial<RunLimits>;
  /** The enclosing repository's git paths to show read-only (`enclosingGit`). */
  readonly enclosingGit?: readonly string[];
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
  const enclosing = input.enclosingGit ?? [];
  // The project is a bind mount and its parents a tmpfs: git's discovery stops at that
  // boundary unless told to cross it to the repository's (read-only) git directory.
  if (enclosing.length > 0) env.GIT_DISCOVERY_ACROSS_FILESYSTEM = '1';
  Object.assign(env, input.passEnv ?? {});
  return {
    network: manifest.permissions.network,
    write: manifest.permissions.write,
    tools: manifest.permissions.tools,
    workspace,
    skillDir: input.skillDir,
    readOnlyInWorkspace: protectedNames().map((p) => join(workspace, p)),
    // write = true: the staged copy is added when the script is about to run (executeRun).
    writableEntries: [],
    limits: { ...DEFAULT_LIMITS, ...input.limits },
    extraWritable: manifest.artifacts.produces.length > 0 ? [join(workspace, '.kitbash', 'artifacts')] : [],
    ...(enclosing.length > 0 ? { enclosingGit: enclosing } : {}),
    scratchDir: input.scratchDir,
    homeDir: input.homeDir,
    hiddenHomes: [...new Set(input.hiddenHomes.filter((h) => h !== '' && h !== '/'))],
    env,
    timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxOutputBytes: input.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
  };
}

type Described = Pick<
  SandboxPolicy,
  'network' | 'write' | 'tools' | 'timeoutMs' | 'maxOutputBytes' | 'extraWritable' | 'env' | 'limits' | 'enclosingGit'
>;

/** What each restriction holds the run to, in words. */
export function describeRestriction(id: RestrictionId, p: Described, surface: Surface = 'cli'): string {
  const l = p.limits;
  // The command line names the flag that changes a limit; the app runs with the defaults.
  const flag = (f: string): string => (surface === 'cli' ? ` (${f})` : '');
  switch (id) {
    case 'network':
      return p.network
        ? "the outside world only (permissions.network = true): a private network namespace linked out through pasta — no route to this machine's loopback or its own addresses, nor to link-local ones (fe80::/10, 169.254.0.0/16); names resolve only through resolvers outside this machine"
        : 'no network — a private namespace with only its own loopback';
    case 'unix-sockets':
      return 'no Unix-socket connects, path or abstract (seccomp refuses socket(AF_UNIX)); /run and /var/run are not there';
    case 'filesystem': {
      const extra = p.extraWritable.length ? ' and .kitbash/artifacts/' : '';
      return p.write
        ? `the run writes a staged copy of the project (permissions.write = true)${extra}; afterwards its new, changed and deleted files and folders are applied, anywhere in the project, except — at any depth — ${protectedNames().join(', ')}, the git directory wherever it is, core.hooksPath and include.path targets; symlinks leading out of the project or into a protected name, special files, and deleting anything but ordinary files and folders are refused and named; hard links are applied as separate files`
        : `everything read-only except private scratch folders${extra}`;
    }
    case 'reading': {
      const git = p.enclosingGit?.length
        ? ', the git directory of the repository the project is a folder of (read-only; its history holds every committed file of that repository)'
        : '';
      return `visible: ${['/usr', '/bin', '/lib*', '/opt', '/etc'].join(', ')} (without shadow, gshadow, sudoers, ssh host keys, ssl/private), the PATH folders outside homes, the project${git}, the skill, a private HOME and /tmp; other homes, /root, /srv, /mnt, /media, /var, /run are absent`;
    }
    case 'skill-folder':
      return "the skill's own folder, every installed skill (.kitbash/) and kitbash.lock read-only";
    case 'pinning':
      return 'runs only files the kitbash.lock integrity covers (no nested .git/, special files or new files) with the executable bits recorded at install';
    case 'home':
      return '$HOME is an empty private folder — no ~/.ssh, tokens or agent configs';
    case 'environment': {
      const extra = Object.keys(p.env).filter(
        (k) =>
          !(ENV_ALLOWLIST as readonly string[]).includes(k) &&
          !k.startsWith('KITBASH_') &&
          k !== 'HOME' &&
          k !== 'TMPDIR',
      );
      return `cleared except ${ENV_ALLOWLIST.join(', ')}, HOME, TMPDIR, KITBASH_*${extra.length ? ` and ${extra.join(', ')}` : ''}`;
    }
    case 'processes':
      return `new session; killed with the parent; anything left when the script exits is killed; ${formatSeconds(p.timeoutMs)} timeout kills the tree`;
    case 'limit-processes':
      return `at most ${l.processes} processes at once${flag('--max-processes')}`;
    case 'limit-files':
      return `at most ${l.openFiles} open files per process${flag('--max-open-files')}`;
    case 'limit-cpu':
      return `at most ${l.cpuSeconds} s of CPU time per process${flag('--max-cpu')}`;
    case 'limit-memory':
      return `at most ${formatBytes(l.memoryBytes)} of memory${flag('--max-memory')}`;
    case 'limit-scratch':
      return `/tmp, TMPDIR and HOME are private tmpfs of ${formatBytes(l.scratchBytes)} each, nothing written to the host's disk${flag('--max-scratch')}`;
    case 'privileges':
      return 'no new privileges (setuid ignored), every capability dropped';
    case 'output':
      return `stdout and stderr capped at ${formatBytes(p.maxOutputBytes)} each (the rest is dropped and reported)`;
    case 'tools':
      return p.tools.length
        ? `permissions.tools = [${p.tools.map((t) => JSON.stringify(t)).join(', ')}] (a grammar no OS mechanism reads)`
        : 'permissions.tools = [] (a grammar no OS mechanism reads)';
  }
}

/** Which rows a working backend holds by itself. */
const ENFORCES: Readonly<Record<BackendId, ReadonlySet<RestrictionId>>> = {
  bubblewrap: new Set([
    'network',
    'unix-sockets',
    'filesystem',
    'reading',
    'skill-folder',
    'home',
    'environment',
    'processes',
    'limit-scratch',
    'privileges',
  ]),
  // No PID namespace on macOS: a grandchild that calls setsid() escapes the group kill;
  // reading is not narrowed; and network = true opens every socket (see restrictionRows).
  'sandbox-exec': new Set([
    'network',
    'unix-sockets',
    'filesystem',
    'skill-folder',
    'home',
    'environment',
    'privileges',
  ]),
  none: new Set(),
};

/**
 * Each restriction with its label on this machine. With `unconfined` nothing is held by
 * an OS sandbox, so every OS row is advisory whatever the backend could do.
 */
export function restrictionRows(
  backend: Pick<BackendStatus, 'backend' | 'works' | 'netns' | 'cgroup' | 'nprocBinds'>,
  p: Described,
  unconfined = false,
  surface: Surface = 'cli',
): RestrictionRow[] {
  const osLabel: EnforcementLabel | undefined =
    backend.works && !unconfined && backend.backend !== 'none' ? LABEL[backend.backend] : undefined;
  const bwrap = osLabel !== undefined && backend.backend === 'bubblewrap';
  return RESTRICTIONS.map((id) => {
    let label: EnforcementLabel;
    if (id === 'output' || id === 'pinning') label = LABEL.runner;
    else if (id === 'tools') label = LABEL.advisory;
    else if ((id === 'network' || id === 'unix-sockets') && p.network && !bwrap) label = LABEL.advisory;
    else if (id === 'network' && p.network) label = backend.netns?.works === true ? osLabel! : LABEL.advisory;
    else if (id === 'limit-files' || id === 'limit-cpu') label = bwrap ? LABEL.rlimit : LABEL.advisory;
    else if (id === 'limit-memory')
      label = bwrap ? (backend.cgroup?.memory ? LABEL.cgroup : LABEL.rlimit) : LABEL.advisory;
    else if (id === 'limit-processes')
      label = bwrap
        ? backend.cgroup?.pids
          ? LABEL.cgroup
          : backend.nprocBinds
            ? LABEL.rlimit
            : LABEL.advisory
        : LABEL.advisory;
    else label = osLabel && ENFORCES[backend.backend].has(id) ? osLabel : LABEL.advisory;
    return { id, what: describeRestriction(id, p, surface), label, required: REQUIRED.has(id) };
  });
}

/** Required rows this machine cannot hold: a run refuses to start while any remain. */
export function unenforced(rows: readonly RestrictionRow[]): RestrictionRow[] {
  return rows.filter((r) => r.required && r.label === LABEL.advisory);
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
