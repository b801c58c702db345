import { existsSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { canonicalSource, githubCloneUrl, parseSource, type SourceSpec } from '../../../shared/lock/source';
import { resolveInside } from '../fs/contain';
import { copySkillFolder, sourceCaps, type SourceCaps } from './copy';
import { cloneRepo } from './git';
import { makeTempDir, sweepLeftovers } from './temp';
import { CodedError } from '../../../shared/result';

/**
 * An opened source: the skill folder, where its siblings live, and how to give back
 * the temp clone. Nothing here is trusted yet — `stage` copies it into a private folder.
 */
export interface Checkout {
  readonly spec: SourceSpec;
  readonly canonical: string;
  /** The skill folder (inside the clone for git sources). */
  readonly skillDir: string;
  /** The folder whose other skill folders are this skill's siblings. */
  readonly siblingsDir: string;
  /** Clone root for git sources, the skill folder's parent for local ones. */
  readonly repoDir: string;
  /** Path of the skill folder inside the repository ('' at its root). */
  readonly subpath: string;
  readonly commit?: string;
  /** A name for the source in messages. */
  readonly label: string;
  /** A source string that refetches the folder `rel` (relative to repoDir) at the same commit. */
  sourceFor(rel: string): string;
  dispose(): void;
}

/** Parse and open a source. Git sources are cloned into a temp folder that `dispose` removes. */
export function openSource(raw: string, cwd: string): Checkout {
  sweepLeftovers();
  const parsed = parseSource(raw, (p) => existsSync(resolve(cwd, p)));
  if (!parsed.ok) throw new CodedError('invalid-input', parsed.error.message);
  const spec = parsed.value;
  if (spec.kind === 'local') {
    const abs = resolve(cwd, spec.path);
    if (!existsSync(abs)) throw new CodedError('invalid-input', `local path not found: ${abs}`);
    const dir = statSync(abs).isFile() && /^(SKILL\.md|skill\.toml)$/.test(basename(abs)) ? dirname(abs) : abs;
    const parent = dirname(dir);
    return {
      spec,
      canonical: canonicalSource(spec, abs),
      skillDir: dir,
      siblingsDir: parent,
      repoDir: parent,
      subpath: basename(dir),
      label: raw,
      sourceFor: (rel) => `file:${join(parent, rel)}`,
      dispose: () => undefined,
    };
  }
  const url =
    spec.kind === 'github' ? githubCloneUrl(spec.owner, spec.repo, process.env.SKILLSMITH_GITHUB_BASE) : spec.url;
  const label = spec.kind === 'github' ? `${spec.owner}/${spec.repo}` : spec.url;
  const clone = cloneRepo(url, spec.ref, label);
  try {
    const sub = spec.subpath ?? '';
    const abs = sub === '' ? clone.dir : resolveInside(clone.dir, sub);
    if (abs === undefined)
      throw new CodedError(
        'invalid-input',
        `invalid subpath "${sub}": it escapes the repository — use a path inside it, e.g. skills/my-skill`,
      );
    if (!existsSync(abs) || !statSync(abs).isDirectory())
      throw new CodedError(
        'invalid-input',
        `path "${sub}" not found in ${label} — point at the folder that contains SKILL.md`,
      );
    const subpath = sub.replace(/^\/+|\/+$/g, '');
    const siblings = subpath === '' ? clone.dir : dirname(abs);
    const ref = clone.commit;
    const sourceFor = (rel: string): string => {
      if (spec.kind === 'github') return `gh:${spec.owner}/${spec.repo}${rel ? `/${rel}` : ''}@${ref}`;
      return `${spec.url}#${ref}${rel ? `:${rel}` : ''}`;
    };
    return {
      spec,
      canonical: canonicalSource(spec),
      skillDir: abs,
      siblingsDir: siblings,
      repoDir: clone.dir,
      subpath,
      commit: clone.commit,
      label,
      sourceFor,
      dispose: clone.dispose,
    };
  } catch (e) {
    clone.dispose();
    throw e;
  }
}

/**
 * The folder `rel` inside an opened source as a checkout of its own (a skill of a
 * repository of many), sharing the clone: `raw` is the source string that names it, and
 * disposing it leaves the clone to its owner.
 */
export function checkoutAt(co: Checkout, rel: string, raw: string): Checkout {
  const parsed = parseSource(raw, () => false);
  if (!parsed.ok) throw new CodedError('invalid-input', parsed.error.message);
  const skillDir = join(co.skillDir, ...rel.split('/'));
  return {
    ...co,
    spec: parsed.value,
    canonical: canonicalSource(parsed.value, skillDir),
    skillDir,
    siblingsDir: dirname(skillDir),
    subpath: [co.subpath, rel].filter(Boolean).join('/'),
    label: raw,
    dispose: () => undefined,
  };
}

/** A private (0700) temp folder for staged copies. */
export function makeStagingDir(): { dir: string; dispose(): void } {
  const dir = makeTempDir('stage');
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copy a checked-out skill folder into the staging folder under `name`. */
export function stageFolder(
  from: string,
  stagingDir: string,
  name: string,
  label: string,
  caps: SourceCaps = sourceCaps(),
): string {
  return stageSkill(from, stagingDir, name, label, caps).dir;
}

/** stageFolder, also returning which staged files are executable. */
export function stageSkill(
  from: string,
  stagingDir: string,
  name: string,
  label: string,
  caps: SourceCaps = sourceCaps(),
): { dir: string; executable: readonly string[] } {
  const dest = join(stagingDir, name);
  const r = copySkillFolder(from, dest, caps, label);
  return { dir: dest, executable: r.executable };
}
