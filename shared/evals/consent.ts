import { utf8Encode } from '../lock/integrity';
import { sha256Hex } from '../lock/sha256';
import type { RunnerConfig } from './model';
import type { Surface } from '../text/surface';

/**
 * Consent for runners (SPEC.md "Evals", Runner approval). A runner's definition comes from
 * the project's kitbash.toml — possibly a repository just cloned — and says what the agent
 * may reach: files outside the workspace (`read`), the caller's secret variables (`env`) and
 * the network. So its first use, and any change to what it may do, waits for the user's
 * approval, recorded outside the project and keyed by the hash of everything below.
 */

/** What an approval covers: the runner as it will run, its reads resolved to absolute paths. */
export interface RunnerGrant {
  readonly id: string;
  readonly command: readonly string[];
  readonly target: string;
  readonly network: boolean;
  readonly env: readonly string[];
  readonly read: readonly string[];
  /**
   * Files copied from the home folder into the trial's HOME; absent when none, so approvals
   * from before the field still hold.
   */
  readonly home?: readonly string[];
  readonly transcript: string;
  readonly timeoutMs: number;
}

/** A runner not yet approved in this project as it is now defined, and why it asks again. */
export interface PendingApproval {
  readonly grant: RunnerGrant;
  /** What changed since the last approval of this runner here; empty on first use. */
  readonly changes: readonly string[];
}

export function runnerGrant(runner: RunnerConfig, absoluteReads: readonly string[]): RunnerGrant {
  return {
    id: runner.id,
    command: [...runner.command],
    target: runner.target,
    network: runner.network,
    // Order does not change what the agent gets, so it does not ask again.
    env: [...new Set(runner.env)].sort(),
    read: [...new Set(absoluteReads)].sort(),
    ...(runner.home.length ? { home: [...new Set(runner.home)].sort() } : {}),
    transcript: runner.transcript,
    timeoutMs: runner.timeoutMs,
  };
}

/** JSON with object keys sorted at every level: one text per value, whatever built it. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The approval key: sha256 of the grant and the project's real path, so an approval given
 * in one checkout never covers the same runner id in another repository.
 */
export function grantKey(grant: RunnerGrant, projectRealPath: string): string {
  return sha256Hex(utf8Encode(canonicalJson({ project: projectRealPath, runner: grant })));
}

const argv = (c: readonly string[]): string =>
  c.map((a) => (/^[\w@%+=:,./{}-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');

/** What changed from the approved grant to this one, one line each. */
export function grantChanges(before: RunnerGrant, now: RunnerGrant): string[] {
  const out: string[] = [];
  if (canonicalJson(before.command) !== canonicalJson(now.command))
    out.push(`command: ${argv(before.command)} → ${argv(now.command)}`);
  const diff = (what: string, a: readonly string[], b: readonly string[]): void => {
    for (const x of b) if (!a.includes(x)) out.push(`${what}: + ${x}`);
    for (const x of a) if (!b.includes(x)) out.push(`${what}: − ${x}`);
  };
  diff('read', before.read, now.read);
  diff('home', before.home ?? [], now.home ?? []);
  diff('env', before.env, now.env);
  if (before.network !== now.network)
    out.push(`network: ${before.network ? 'on' : 'off'} → ${now.network ? 'on' : 'off'}`);
  if (before.target !== now.target) out.push(`target: ${before.target} → ${now.target}`);
  if (before.transcript !== now.transcript) out.push(`transcript: ${before.transcript} → ${now.transcript}`);
  if (before.timeoutMs !== now.timeoutMs) out.push(`timeout: ${before.timeoutMs / 1000} s → ${now.timeoutMs / 1000} s`);
  return out;
}

/** What approving the runner lets it do, one line each: what the CLI prints and the app shows. */
export function grantSummary(g: RunnerGrant): string[] {
  return [
    `command: ${argv(g.command)}`,
    `reads: ${g.read.length ? g.read.join(', ') : 'nothing outside the trial workspace'} (read-only)`,
    ...(g.home?.length
      ? [`home: copies ${g.home.map((h) => `~/${h}`).join(', ')} into the trial's private home (${lends(g.home)})`]
      : []),
    `env: ${g.env.length ? `${g.env.join(', ')} (passed from your environment)` : 'none of your variables'}`,
    `network: ${g.network ? 'on — it can reach any host' : 'off'}`,
    `target: ${g.target}, transcript: ${g.transcript}, timeout: ${g.timeoutMs / 1000} s`,
  ];
}

/** What lending these home files gives the agent; a file from a login folder is named as such. */
function lends(files: readonly string[]): string {
  const from = files.flatMap((f) => {
    const c = CREDENTIAL_PATHS.find((x) => f === x || f.startsWith(`${x}/`));
    return c ? [`~/${f} is from ~/${c}, a login or credential location: the agent gets its contents`] : [];
  });
  return ['the agent may change the copies, never the originals', ...from].join('; ');
}

/**
 * The one-line refusal of an unapproved runner: on the command line with the command that
 * approves it; the app asks for the approval itself when the run starts again.
 */
export function notApprovedMessage(p: PendingApproval, surface: Surface = 'cli'): string {
  const copies = p.grant.home?.length ? `, copies of ${p.grant.home.map((h) => `~/${h}`).join(', ')}` : '';
  const asks = `it asks for ${p.grant.network ? 'network' : 'no network'}, env ${p.grant.env.join(', ') || 'none'}, reads ${p.grant.read.join(', ') || 'none'}${copies}`;
  const why = p.changes.length ? `changed since you approved it (${p.changes.join('; ')})` : 'not approved yet';
  const how =
    surface === 'cli'
      ? `approve it with: skillsmith eval --approve-runner ${p.grant.id}`
      : 'start the run again to review and approve it';
  return `runner ${p.grant.id}: ${why} — ${asks}; ${how}`;
}

/**
 * Folders under a home that hold logins and tokens: an agent's OAuth session, cloud and
 * registry credentials, keys. A runner may not read them, nor a folder holding them.
 */
export const CREDENTIAL_PATHS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.yarnrc',
  '.pypirc',
  '.git-credentials',
  '.gitconfig',
  '.vault-token',
  '.terraform.d',
  '.password-store',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.m2/settings.xml',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/git',
  '.config/op',
  '.config/github-copilot',
  '.config/claude',
  '.config/anthropic',
  '.config/openai',
  '.local/share/keyrings',
  '.claude',
  '.claude.json',
  '.codex',
  '.gemini',
  '.cursor',
  '.aider',
  'Library/Keychains',
];

const norm = (p: string): string => {
  const s = p.split('\\').join('/').replace(/\/+$/, '');
  return s === '' ? '/' : s;
};
const within = (p: string, dir: string): boolean => p === dir || p.startsWith(dir === '/' ? '/' : `${dir}/`);

/**
 * Why an absolute read path is refused, or undefined: the file-system root, a home folder
 * or a folder above one (which would hold every secret in it), or anything that is, holds
 * or lies in a credential folder of a home.
 */
export function refusedRead(path: string, homes: readonly string[]): string | undefined {
  const p = norm(path);
  if (p === '/' || /^[A-Za-z]:$/.test(p)) return 'the file-system root';
  for (const h of homes.map(norm).filter((x) => x !== '/')) {
    if (within(h, p)) return p === h ? 'your home folder' : `a folder holding your home folder (${h})`;
    for (const c of CREDENTIAL_PATHS) {
      const cred = `${h}/${c}`;
      if (within(p, cred)) return `a credential location (~/${c})`;
      if (within(cred, p)) return `a folder holding a credential location (~/${c})`;
    }
  }
  return undefined;
}

/** The one-line refusal of a read path, naming the file, the runner and the path. */
export function refusedReadMessage(runner: string, path: string, why: string, file = 'kitbash.toml'): string {
  return `${file}: evals.runners.${runner}.read: ${path} is refused — ${why}; an agent signs in through its API-key variable in env (e.g. env = ["ANTHROPIC_API_KEY"]), or a login file you name in home (copied into the trial, e.g. home = [".codex/auth.json"]), never by reading its login folder`;
}
