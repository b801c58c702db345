/**
 * Projects with installed, pinned skills for the sandbox suites, and the gate that
 * requires bubblewrap (CI installs it; SKILLSMITH_REQUIRE_ALL makes a missing one fail).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readLockOrThrow, skillIntegrity, writeLock, type LockEntry } from '../../main/services/lock/index';
import { probeBwrap } from '../../main/services/sandbox/bwrap';
import type { RunDeps } from '../../main/services/runs/service';
import { startRun } from '../../main/services/runs/service';
import type { RunEvent, RunRequest, RunResult } from '../../main/services/runs/types';
import { requireOrSkip } from '../support/paths';

const made: string[] = [];

/**
 * A fresh folder; `base` puts it somewhere other than os.tmpdir() (e.g. /var/tmp, which the sandbox does not cover).
 */
export function tempDir(prefix: string, base = tmpdir()): string {
  mkdirSync(base, { recursive: true });
  const d = mkdtempSync(join(base, prefix));
  made.push(d);
  return d;
}

export function cleanup(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface SkillSpec {
  /** Extra skill.toml tables, e.g. '[permissions]\nnetwork = true'. */
  readonly toml?: string;
  readonly version?: string;
  /** The skill's description (skill.toml), which agents list to their model. */
  readonly description?: string;
  /** The SKILL.md body. */
  readonly body?: string;
  /** scripts/<name> → content; made executable unless listed in `plain`. */
  readonly scripts?: Readonly<Record<string, string>>;
  readonly plain?: readonly string[];
  /** Other files of the skill (relative paths). */
  readonly files?: Readonly<Record<string, string>>;
}

/** Install skills under `<root>/.kitbash/skills/` and pin them in kitbash.lock with their real integrity. */
export function installSkills(
  root: string,
  skills: Readonly<Record<string, SkillSpec>>,
  opts: { pin?: boolean } = {},
): void {
  const entries: LockEntry[] = [];
  for (const [name, spec] of Object.entries(skills)) {
    const dir = join(root, '.kitbash', 'skills', name);
    const files: Record<string, string> = {
      'SKILL.md': spec.body ?? `# ${name}\n\nA skill the sandbox tests run.\n`,
      'skill.toml': [
        `[skill]`,
        `name = "${name}"`,
        `version = "${spec.version ?? '1.0.0'}"`,
        `description = ${JSON.stringify(spec.description ?? 'A skill the sandbox tests run.')}`,
        '',
        '[context]',
        'budget = 1500',
        '',
        spec.toml ?? '',
      ].join('\n'),
      ...(spec.files ?? {}),
    };
    for (const [s, content] of Object.entries(spec.scripts ?? {})) files[`scripts/${s}`] = content;
    for (const [rel, content] of Object.entries(files)) {
      const abs = join(dir, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
      if (rel.startsWith('scripts/') && !(spec.plain ?? []).includes(rel.slice('scripts/'.length)))
        chmodSync(abs, 0o755);
    }
    const integrity = skillIntegrity(dir);
    if (!integrity.ok) throw new Error(`cannot hash ${dir}`);
    const executable = Object.keys(spec.scripts ?? {})
      .filter((s) => !(spec.plain ?? []).includes(s))
      .map((s) => `scripts/${s}`);
    entries.push({
      name,
      version: spec.version ?? '1.0.0',
      source: `file:./src/${name}`,
      integrity: integrity.value,
      executable,
    });
  }
  if (opts.pin !== false)
    writeLock(
      root,
      entries.sort((a, b) => (a.name < b.name ? -1 : 1)),
    );
}

/**
 * Pin an installed skill's current files (again), as a reviewed install or edit would:
 * eval and run refuse a skill that drifted from kitbash.lock or is not in it.
 */
export function repinSkill(root: string, name: string, version = '0.0.0'): void {
  const integrity = skillIntegrity(join(root, '.kitbash', 'skills', name));
  if (!integrity.ok) throw new Error(`cannot hash ${name}`);
  const others = readLockOrThrow(root).entries.filter((e) => e.name !== name);
  const old = readLockOrThrow(root).entries.find((e) => e.name === name);
  const entry = old ?? { name, version, source: `file:./src/${name}` };
  writeLock(
    root,
    [...others, { ...entry, integrity: integrity.value }].sort((a, b) => (a.name < b.name ? -1 : 1)),
  );
}

/** A project folder with the given skills installed and pinned. */
export function project(skills: Readonly<Record<string, SkillSpec>>, base?: string): string {
  const root = tempDir('skillsmith-sbx-', base);
  installSkills(root, skills);
  return root;
}

export interface Collected {
  readonly result: RunResult;
  readonly events: RunEvent[];
  readonly stdout: string;
  readonly stderr: string;
}

/** Run through the service and keep every event. */
export async function run(
  req: Omit<RunRequest, 'args' | 'mode'> & Partial<Pick<RunRequest, 'args' | 'mode'>>,
  deps: RunDeps = {},
  signal?: AbortSignal,
): Promise<Collected> {
  const events: RunEvent[] = [];
  const result = await startRun(
    { mode: 'run', args: [], ...req },
    { parentEnv: { PATH: process.env.PATH, LANG: 'C.UTF-8' }, ...deps },
    { onEvent: (e) => events.push(e), ...(signal ? { signal } : {}) },
  );
  const text = (t: 'stdout' | 'stderr'): string => events.map((e) => (e.type === t ? e.text : '')).join('');
  return { result, events, stdout: text('stdout'), stderr: text('stderr') };
}

/** bubblewrap present and able to build a sandbox here; required under SKILLSMITH_REQUIRE_ALL. */
export async function bwrapWorks(): Promise<boolean> {
  const s = await probeBwrap();
  return requireOrSkip(`bubblewrap (${s.reason ?? 'ok'})`, s.works);
}

/**
 * A machine without a working sandbox, where only the explicit `--unconfined` override runs: the control that shows an
 * escape test can fail.
 */
export function unconfinedHost(): RunDeps {
  return {
    host: { platform: 'linux', bwrapPath: fakeBwrap(tempDir('skillsmith-fake-')), sandboxExecPath: '/nonexistent' },
  };
}

/** A fake bwrap that fails the way Ubuntu 24.04's AppArmor userns restriction makes it fail. */
export function fakeBwrap(dir: string, kind: 'userns' | 'broken' = 'userns'): string {
  const p = join(dir, 'fake-bwrap');
  const say =
    kind === 'userns' ? 'bwrap: setting up uid map: Permission denied' : 'bwrap: something unexpected went wrong';
  writeFileSync(p, `#!/bin/sh\necho '${say}' >&2\nexit 1\n`);
  chmodSync(p, 0o755);
  return p;
}

export const NODE_SHEBANG = '#!/usr/bin/env node\n';

/** `connect.js <host> <port>`: prints `connected: <what the peer said>` (exit 0) or `blocked: <why>` (exit 3). */
export const CONNECT = `${NODE_SHEBANG}
const [host, port] = process.argv.slice(2);
const s = require('net').connect(Number(port), host);
let data = '';
s.on('data', (d) => (data += d));
s.on('end', () => { console.log('connected: ' + data); process.exit(0); });
s.on('error', (e) => { console.log('blocked: ' + e.code); process.exit(3); });
setTimeout(() => { console.log('blocked: no answer'); process.exit(3); }, 8000);
`;

export function exists(p: string): boolean {
  return existsSync(p);
}
