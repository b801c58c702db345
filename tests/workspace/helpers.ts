/**
 * Fixtures for the workspace suites: temp projects, skill folders, and local git
 * repositories (a work tree pushed to `git init --bare`, reached by file:// URL).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from '../../main/cli/main';

const made: string[] = [];

export function temp(prefix = 'skillsmith-ws-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

export function cleanupTemps(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export type Files = Readonly<Record<string, string | Uint8Array | { symlink: string }>>;

export function write(root: string, files: Files): void {
  for (const [rel, spec] of Object.entries(files)) {
    const abs = join(root, ...rel.split('/'));
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof spec === 'object' && !(spec instanceof Uint8Array)) symlinkSync(spec.symlink, abs);
    else writeFileSync(abs, spec);
  }
}

export interface SkillOpts {
  version?: string;
  description?: string;
  deps?: Record<string, string>;
  network?: boolean;
  write?: boolean;
  tools?: string[];
  budget?: number;
  produces?: string[];
  consumes?: string[];
  body?: string;
  extra?: string;
}

/** The two files of a clean manifested skill, keyed under `prefix/`. */
export function skillFiles(prefix: string, name: string, o: SkillOpts = {}): Record<string, string> {
  const p = prefix ? `${prefix}/` : '';
  const toml = [
    '[skill]',
    `name = "${name}"`,
    `version = "${o.version ?? '1.0.0'}"`,
    `description = "${o.description ?? `The ${name} skill, for tests.`}"`,
    '',
    '[context]',
    `budget = ${o.budget ?? 1500}`,
    '',
    '[permissions]',
    `tools = [${(o.tools ?? ['read']).map((t) => `"${t}"`).join(', ')}]`,
    `network = ${o.network ?? false}`,
    `write = ${o.write ?? false}`,
    '',
  ];
  if (o.produces || o.consumes) {
    toml.push('[artifacts]');
    if (o.produces) toml.push(`produces = [${o.produces.map((x) => `"${x}"`).join(', ')}]`);
    if (o.consumes) toml.push(`consumes = [${o.consumes.map((x) => `"${x}"`).join(', ')}]`);
    toml.push('');
  }
  if (o.deps && Object.keys(o.deps).length) {
    toml.push('[dependencies]');
    for (const [k, v] of Object.entries(o.deps)) toml.push(`${k} = "${v}"`);
    toml.push('');
  }
  if (o.extra) toml.push(o.extra);
  return {
    [`${p}skill.toml`]: toml.join('\n'),
    [`${p}SKILL.md`]: o.body ?? `# ${name}\n\nHelps with ${name} tasks in a small, careful way.\n`,
  };
}

export function gitRun(cwd: string, ...args: string[]): string {
  const r = spawnSync(
    'git',
    [
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      '-c',
      'init.defaultBranch=main',
      '-c',
      'commit.gpgsign=false',
      '-c',
      'tag.gpgsign=false',
      ...args,
    ],
    { cwd, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout.trim();
}

export function gitAvailable(): boolean {
  const r = spawnSync('git', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

/** A bare repository holding one commit of `files`; returns its file:// URL and the work tree for later commits. */
export function gitRepo(files: Files): {
  url: string;
  work: string;
  bare: string;
  commit(files: Files, message?: string): string;
  tag(name: string): void;
} {
  const base = temp('skillsmith-git-');
  const bare = join(base, 'repo.git');
  const work = join(base, 'work');
  mkdirSync(work);
  gitRun(base, 'init', '--quiet', '--bare', bare);
  gitRun(work, 'init', '--quiet');
  const commit = (f: Files, message = 'update'): string => {
    write(work, f);
    gitRun(work, 'add', '-A');
    gitRun(work, 'commit', '--quiet', '--allow-empty', '-m', message);
    gitRun(work, 'push', '--quiet', '--tags', bare, 'HEAD:refs/heads/main');
    return gitRun(work, 'rev-parse', 'HEAD');
  };
  commit(files, 'initial');
  gitRun(bare, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  return {
    url: pathToFileURL(bare).href,
    work,
    bare,
    commit,
    tag: (name: string) => {
      gitRun(work, 'tag', name);
      gitRun(work, 'push', '--quiet', bare, `refs/tags/${name}`);
    },
  };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in this process (no build needed). */
export async function cli(cwd: string, ...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd, out: (t) => (stdout += t), err: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
