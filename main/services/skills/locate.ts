import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { lstatNs, readdirEntries } from './fs-async';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { isSymlink } from '../fs/probe';
import { fail, ok, type Result } from '../../../shared/result';

export const SKILLS_DIR = join('.kitbash', 'skills');
const SKILLS_DISPLAY = '.kitbash/skills';

/** A skill folder to check, or why the thing in its place is not one. */
export type SkillLocation =
  | { kind: 'folder'; abs: string; display: string; nameHint: string }
  | { kind: 'broken'; abs: string; display: string; nameHint: string; problem: string };

/** Display form of a path: relative to the cwd with '/' separators, '.' for the cwd itself. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

/**
 * Every entry of `.kitbash/skills/`, in name order. Dot-entries (staging areas) and loose
 * files are not skills; a symlinked folder or one without SKILL.md is reported, since an
 * install should never leave either behind.
 */
export function installedSkills(projectRoot: string): SkillLocation[] {
  const dir = join(projectRoot, SKILLS_DIR);
  if (!existsSync(dir)) return [];
  return skillEntries(readdirSync(dir, { withFileTypes: true })).flatMap((d) =>
    locationOf(dir, d, (abs) => existsSync(`${abs}${sep}SKILL.md`) || isSymlink(`${abs}${sep}SKILL.md`)),
  );
}

/** installedSkills with the folder read through promises (the app's install steps). */
export async function installedSkillsAsync(projectRoot: string): Promise<SkillLocation[]> {
  const dir = join(projectRoot, SKILLS_DIR);
  let dirents: Dirent[];
  try {
    dirents = await readdirEntries(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const entries = skillEntries(dirents);
  // Anything at SKILL.md counts, a dangling symlink included (the sync walk's existsSync || isSymlink).
  const hasMd = await Promise.all(
    entries.map((d) =>
      d.isDirectory() && !d.isSymbolicLink()
        ? lstatNs(join(dir, d.name, 'SKILL.md')).then((st) => st !== undefined)
        : false,
    ),
  );
  return entries.flatMap((d, i) => locationOf(dir, d, () => hasMd[i]!));
}

/** The entries of `.kitbash/skills/` that may be skills, in name order. */
function skillEntries(dirents: Dirent[]): Dirent[] {
  return dirents
    .filter((d) => !d.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** What one entry of `.kitbash/skills/` (the folder `dir`, as join(projectRoot, SKILLS_DIR) gives it) is. */
function locationOf(dir: string, d: Dirent, hasSkillMd: (abs: string) => boolean): SkillLocation[] {
  // A name from readdir is one clean segment (dot-names are filtered out), so this is what
  // join() and displayPath() give, without their normalising per skill: a warm lint
  // locates a thousand skills before anything else.
  const abs = `${dir}${sep}${d.name}`;
  const display = `${SKILLS_DISPLAY}/${d.name}`;
  if (d.isSymbolicLink()) {
    return [
      {
        kind: 'broken',
        abs,
        display,
        nameHint: d.name,
        problem: 'is a symlink — installed skills must be real folders (reinstall it)',
      },
    ];
  }
  if (!d.isDirectory()) return [];
  if (!hasSkillMd(abs)) {
    return [
      {
        kind: 'broken',
        abs,
        display,
        nameHint: d.name,
        problem: 'has no SKILL.md — an incomplete install (reinstall or remove it)',
      },
    ];
  }
  return [{ kind: 'folder', abs, display, nameHint: d.name }];
}

/** A failure is `invalid-request`: the command line names nothing this command can read. */
export type TargetResolution = Result<SkillLocation>;

const REMOTE = /^(?:gh:|https?:\/\/|ssh:\/\/|git@|file:\/\/)|^(?!\.)[\w.-]+\/[\w.-]+/;

/**
 * What a command-line target names, in order: `file:<path>`, an existing path, an
 * installed skill name. A remote source is refused rather than fetched behind the
 * user's back.
 */
export function resolveTarget(arg: string, cwd: string): TargetResolution {
  if (arg.startsWith('file:') && !arg.startsWith('file://')) {
    const abs = resolve(cwd, arg.slice('file:'.length));
    if (!existsSync(abs)) return fail('invalid-request', `${arg}: local path not found: ${abs}`);
    return ok(folderFor(abs, cwd));
  }
  const abs = resolve(cwd, arg);
  if (existsSync(abs)) return ok(folderFor(abs, cwd));
  const installed = installedSkills(cwd);
  const byName = installed.find((s) => s.nameHint === arg);
  if (byName) return ok(byName);
  if (REMOTE.test(arg)) {
    return fail(
      'invalid-request',
      `${arg}: remote sources are not fetched by this command — clone it and pass the folder`,
    );
  }
  const names = installed.map((s) => s.nameHint);
  return fail(
    'invalid-request',
    `${arg}: not found as a path or installed skill name${names.length ? `\n  installed: ${names.join(', ')}` : ''}`,
  );
}

/** A path to SKILL.md or skill.toml means its folder. */
function folderFor(abs: string, cwd: string): SkillLocation {
  const target = statSync(abs).isFile() && /^(SKILL\.md|skill\.toml)$/.test(basename(abs)) ? dirname(abs) : abs;
  return { kind: 'folder', abs: target, display: displayPath(cwd, target), nameHint: basename(target) };
}
