import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { canonicalSource, githubCloneUrl, parseSource, type SourceSpec } from '../../../shared/lock/source';
import { resolveInside } from '../fs/contain';
import { copySkillFolder, sourceCaps, type SourceCaps } from './copy';
import { cloneRepo } from './git';
import { discardTempDir, makeTempDir, sweepLeftovers } from './temp';
import { CodedError } from '../../../shared/result';
import type { SourceListing } from '../install/listing';
import { openWellknown } from '../install/wellknown-fetch';

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
  /** The index digest (`sha256:<hex>`) the files were verified against (a discovery index source). */
  readonly digest?: string;
  /** A name for the source in messages. */
  readonly label: string;
  /** What a source that is not a folder tree offers (a discovery index): listed without fetching any skill. */
  readonly offered?: SourceListing;
  /** Fetch the offered skill `rel` and give its checkout (shares this one's temp folder). */
  materialize?(rel: string): Promise<Checkout>;
  /** A source string that refetches the folder `rel` (relative to repoDir) at the same commit. */
  sourceFor(rel: string): string;
  dispose(): Promise<void>;
}

const NOTHING = (): Promise<void> => Promise.resolve();

/** What is at `p`, through symlinks; undefined when nothing is. */
const statOf = (p: string) => stat(p).catch(() => undefined);

/** Parse and open a source. Git sources are cloned into a temp folder that `dispose` removes. */
export async function openSource(raw: string, cwd: string): Promise<Checkout> {
  await sweepLeftovers();
  const parsed = await parseSourceAt(raw, cwd);
  if (!parsed.ok) throw new CodedError('invalid-input', parsed.error.message);
  const spec = parsed.value;
  if (spec.kind === 'local') {
    const abs = resolve(cwd, spec.path);
    const st = await statOf(abs);
    if (!st) throw new CodedError('invalid-input', `local path not found: ${abs}`);
    const dir = st.isFile() && /^(SKILL\.md|skill\.toml)$/.test(basename(abs)) ? dirname(abs) : abs;
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
      dispose: NOTHING,
    };
  }
  if (spec.kind === 'wellknown') return openWellknown(spec);
  const url =
    spec.kind === 'github' ? githubCloneUrl(spec.owner, spec.repo, process.env.SKILLSMITH_GITHUB_BASE) : spec.url;
  const label = spec.kind === 'github' ? `${spec.owner}/${spec.repo}` : spec.url;
  const clone = await cloneRepo(url, spec.ref, label);
  try {
    const sub = spec.subpath ?? '';
    const abs = sub === '' ? clone.dir : resolveInside(clone.dir, sub);
    if (abs === undefined)
      throw new CodedError(
        'invalid-input',
        `invalid subpath "${sub}": it escapes the repository — use a path inside it, e.g. skills/my-skill`,
      );
    if (!(await statOf(abs))?.isDirectory())
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
    await clone.dispose();
    throw e;
  }
}

/**
 * parseSource, with the question "is this a path on disk?" answered through promises: a
 * source string that is not a URL is a local path when something exists at it.
 */
async function parseSourceAt(raw: string, cwd: string): Promise<ReturnType<typeof parseSource>> {
  const asked = new Set<string>();
  parseSource(raw, (p) => (asked.add(p), false));
  const present = new Set<string>();
  for (const p of asked) if (await statOf(resolve(cwd, p))) present.add(p);
  return parseSource(raw, (p) => present.has(p));
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
    dispose: NOTHING,
  };
}

/** A private (0700) temp folder for staged copies. */
export async function makeStagingDir(): Promise<{ dir: string; dispose(): Promise<void> }> {
  const dir = await makeTempDir('stage');
  let gone: Promise<void> | undefined;
  return { dir, dispose: () => (gone ??= discardTempDir(dir, 'stage')) };
}

/** Copy a checked-out skill folder into the staging folder under `name`. */
export async function stageFolder(
  from: string,
  stagingDir: string,
  name: string,
  label: string,
  caps: SourceCaps = sourceCaps(),
): Promise<string> {
  return (await stageSkill(from, stagingDir, name, label, caps)).dir;
}

/** stageFolder, also returning which staged files are executable. */
export async function stageSkill(
  from: string,
  stagingDir: string,
  name: string,
  label: string,
  caps: SourceCaps = sourceCaps(),
): Promise<{ dir: string; executable: readonly string[] }> {
  const dest = join(stagingDir, name);
  const r = await copySkillFolder(from, dest, caps, label);
  return { dir: dest, executable: r.executable };
}
