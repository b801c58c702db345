import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { unifiedDiff } from '../../../shared/text/diff';
import { compileProject } from '../compile/index';
import { SKILLS_DIR } from '../skills/locate';
import { firstLine, git } from '../sources/git';

/** Folders of a skill that stay out of a trial: the answer key and its material. */
const NOT_INSTALLED = new Set(['evals', 'fixtures']);
/** Text files up to this size keep their content so the workspace diff can be shown. */
const DIFF_MAX_BYTES = 256 * 1024;

/**
 * A fixture or skill is someone else's folder: a `.git` anywhere in it (a folder, a
 * `gitdir:` file, a symlink) would hand the host-side git calls below its config — a
 * core.fsmonitor or hook runs a program on the host, outside the sandbox. None is copied.
 * Case-folded, since a case-insensitive disk finds `.GIT` as `.git`.
 */
const notGit = (src: string): boolean => basename(src).toLowerCase() !== '.git';

/**
 * Set on every git call, so nothing configured or shipped anywhere runs a program: the
 * workspace's own config is the one `git init` just wrote, and these win over it anyway.
 */
const NO_PROGRAMS = [
  ...['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.untrackedCache=false'],
  ...['-c', 'core.attributesFile=/dev/null', '-c', 'core.excludesFile=/dev/null', '-c', 'protocol.allow=never'],
];

export interface FileState {
  readonly hash: string;
  /** Content of a small text file (for the diff). */
  readonly text?: string;
}
export type Snapshot = ReadonlyMap<string, FileState>;

export interface TrialWorkspace {
  readonly dir: string;
  /** The installed copy of the skill inside the workspace (absent for a baseline trial). */
  readonly skillDir?: string;
  readonly before: Snapshot;
}

/**
 * A fresh workspace for one trial: the fixture copied in, the skill installed under
 * `.kitbash/skills/` and compiled for the runner's target by the project's own compiler
 * (the same plan and writer `skillsmith compile` uses), then `git init` and one commit,
 * so the agent starts in a clean repository and every change it makes is exact. Every step
 * goes through promises: from the app, trials run on main's thread, which keeps serving
 * the window while a large fixture is copied, committed and hashed.
 */
export async function makeWorkspace(opts: {
  dir: string;
  fixtureDir?: string;
  skill?: { name: string; dir: string };
  target: string;
}): Promise<TrialWorkspace> {
  const ws = opts.dir;
  await mkdir(ws, { recursive: true });
  if (opts.fixtureDir) await cp(opts.fixtureDir, ws, { recursive: true, verbatimSymlinks: true, filter: notGit });
  let skillDir: string | undefined;
  if (opts.skill) {
    skillDir = join(ws, SKILLS_DIR, opts.skill.name);
    await cp(opts.skill.dir, skillDir, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => notGit(src) && !NOT_INSTALLED.has(relative(opts.skill!.dir, src).split(sep)[0]!),
    });
    await writeFile(
      join(ws, 'kitbash.toml'),
      // No script guard (SPEC D200) in a trial: the trial's own sandbox already holds the whole
      // agent, scripts included, and a second sandbox cannot start inside it.
      `# written by skillsmith eval: this trial's agent\n[project]\ntargets = [${JSON.stringify(opts.target)}]\n\n[policy]\nenforce_in_agent = false\n`,
    );
    const { plan } = await compileProject(ws, { durable: false });
    if (plan.errors.length)
      throw new Error(`compiling ${opts.skill.name} for ${opts.target} failed: ${plan.errors.join('; ')}`);
  }
  await gitInit(ws);
  return { dir: ws, ...(skillDir ? { skillDir } : {}), before: await snapshot(ws) };
}

async function gitInit(ws: string): Promise<void> {
  // No user or system git config: hooks, signing and templates of the host stay out.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    // The trial folder is the repository: git never looks above it for another one.
    GIT_CEILING_DIRECTORIES: dirname(ws),
    HOME: ws,
    GIT_TEMPLATE_DIR: '',
  };
  const identity = [
    ...NO_PROGRAMS,
    ...['-c', 'user.name=skillsmith', '-c', 'user.email=eval@skillsmith.invalid'],
    ...['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main'],
  ];
  const run = async (...args: string[]): Promise<void> => {
    const failed = (why: string) => new Error(`git ${args[0]} in the trial workspace failed: ${why}`);
    const r = await git([...identity, ...args], ws, env).catch((e: unknown) => {
      throw failed(e instanceof Error ? e.message : String(e));
    });
    if (r.code !== 0) throw failed(firstLine(r.stderr));
  };
  await run('init', '-q');
  await run('add', '-A');
  await run('commit', '-q', '--allow-empty', '--no-verify', '-m', 'trial fixture');
}

/** Every file under `root` except `.git/`, by workspace-relative path. */
export async function snapshot(root: string): Promise<Snapshot> {
  const out = new Map<string, FileState>();
  const walk = async (dir: string): Promise<void> => {
    for (const d of await readdir(dir, { withFileTypes: true })) {
      const abs = join(dir, d.name);
      const rel = relative(root, abs).split(sep).join('/');
      if (rel === '.git') continue;
      if (d.isDirectory()) await walk(abs);
      else if (d.isSymbolicLink()) out.set(rel, { hash: `symlink:${await readlink(abs)}` });
      else if (d.isFile()) {
        const bytes = await readFile(abs);
        const hash = createHash('sha256').update(bytes).digest('hex');
        const text = bytes.length <= DIFF_MAX_BYTES && !bytes.includes(0) ? bytes.toString('utf8') : undefined;
        out.set(rel, { hash, ...(text !== undefined ? { text } : {}) });
      }
    }
  };
  await walk(root);
  return out;
}

/** Paths added, changed or deleted between two snapshots, sorted. */
export function changedPaths(before: Snapshot, after: Snapshot): string[] {
  const out = new Set<string>();
  for (const [p, s] of after) if (before.get(p)?.hash !== s.hash) out.add(p);
  for (const p of before.keys()) if (!after.has(p)) out.add(p);
  return [...out].sort();
}

/** A unified diff of the changed files (binary or large files named only). */
export function workspaceDiff(before: Snapshot, after: Snapshot, paths: readonly string[]): string {
  return paths
    .map((p) => {
      const a = before.get(p);
      const b = after.get(p);
      if ((a && a.text === undefined) || (b && b.text === undefined))
        return `Binary or large file ${p} ${!a ? 'added' : !b ? 'deleted' : 'changed'}\n`;
      return (
        unifiedDiff(p, a?.text ?? '', b?.text ?? '') ||
        `${p}: ${!a ? 'added (empty)' : !b ? 'deleted (was empty)' : 'changed (line endings or final newline)'}\n`
      );
    })
    .join('');
}
