import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CodedError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { SEMVER_RE, type Skill } from '../../../shared/ksf/model';
import { isKsfName } from '../../../shared/names';
import type { TreeEntry } from '../../../shared/ksf/tree';
import type { Catalog } from '../../../shared/project/sources';
import type { Candidate } from '../../../shared/resolve/resolve';
import { gitSourceString, parseSource } from '../../../shared/lock/source';
import { loadFolderAsync } from '../skills/folder';
import { mapLimit, READ_LANES } from '../skills/limit';
import type { ProjectIndex } from '../skills/project-index';
import { cloneRepo, git } from '../sources/git';
import type { Checkout } from '../sources';

/** Where a candidate's files are and how the lock will name its source. */
export interface CandidateOrigin {
  readonly candidate: Candidate;
  /** Folder to stage from; a function when it must first be checked out (a git tag). */
  readonly dir: () => Promise<string>;
  readonly source: string;
  readonly canonical: string;
  readonly kind: 'local' | 'git' | 'github' | 'wellknown';
  readonly commit?: string;
  readonly installed: boolean;
}

function candidateOf(skill: Skill, id: string, origin: string): Candidate {
  const m = skill.manifest;
  return { id, name: m.skill.name, version: m.skill.version, dependencies: m.dependencies, origin };
}

const at = (p: string) => (): Promise<string> => Promise.resolve(p);

/** Skill folders directly inside `dir` (those with a SKILL.md), by name. */
async function skillFolders(dir: string): Promise<string[]> {
  const dirents = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const named = dirents.filter((d) => d.isDirectory() && !d.name.startsWith('.'));
  const hasMd = await Promise.all(
    named.map((d) =>
      stat(join(dir, d.name, 'SKILL.md')).then(
        () => true,
        () => false,
      ),
    ),
  );
  return named
    .filter((_, i) => hasMd[i])
    .map((d) => d.name)
    .sort();
}

/** Each skill folder directly inside `dir` that loads, with its name. */
async function loadableFolders(dir: string): Promise<{ name: string; abs: string; skill: Skill }[]> {
  const names = await skillFolders(dir);
  const loaded = await mapLimit(names, READ_LANES, (name) => loadFolderAsync(join(dir, name), name, name));
  return names.flatMap((name, i) => {
    const l = loaded[i]!;
    return l.ok ? [{ name, abs: join(dir, name), skill: l.value }] : [];
  });
}

/** The other skill folders next to the requested one in its source. */
export async function siblingCandidates(co: Checkout): Promise<CandidateOrigin[]> {
  const relBase = co.siblingsDir === co.repoDir ? '' : co.subpath.split('/').slice(0, -1).join('/');
  return (await loadableFolders(co.siblingsDir))
    .filter((f) => resolve(f.abs) !== resolve(co.skillDir))
    .map((f) => {
      const rel = relBase ? `${relBase}/${f.name}` : f.name;
      const source = co.sourceFor(rel);
      return {
        candidate: candidateOf(f.skill, `sibling:${rel}`, 'sibling'),
        dir: at(f.abs),
        source,
        canonical: source,
        kind: co.spec.kind,
        ...(co.commit ? { commit: co.commit } : {}),
        installed: false,
      };
    });
}

/**
 * Every installed skill, as the one version that may be used for its name — from the
 * project's index: only folders that changed since it last saw them are read.
 */
export async function installedCandidates(index: ProjectIndex): Promise<CandidateOrigin[]> {
  return (await index.summaries()).flatMap((s): CandidateOrigin[] =>
    s.ok
      ? [
          {
            candidate: {
              id: `installed:${s.loc.nameHint}`,
              name: s.summary.name,
              version: s.summary.version,
              dependencies: s.summary.dependencies,
              origin: 'installed',
            },
            dir: at(s.loc.abs),
            source: '',
            canonical: '',
            kind: 'local',
            installed: true,
          },
        ]
      : [],
  );
}

/** A release tag: `v<semver>` releases every skill, `<name>@<semver>` only that one. */
function releaseTag(tag: string): { only?: string; version: string } | undefined {
  const at = tag.lastIndexOf('@');
  if (at === -1) return tag.startsWith('v') && SEMVER_RE.test(tag.slice(1)) ? { version: tag.slice(1) } : undefined;
  const [name, version] = [tag.slice(0, at), tag.slice(at + 1)];
  return isKsfName(name) && SEMVER_RE.test(version) ? { only: name, version } : undefined;
}

/** An opened `[sources]` catalog: its candidates, and the clone to remove afterwards. */
export interface OpenCatalog {
  readonly candidates: CandidateOrigin[];
  dispose(): Promise<void>;
}

/**
 * A catalog's skills: every skill folder at its root (or `path`), and for git
 * repositories also each version tagged `<name>@x.y.z` or `vX.Y.Z`.
 */
export async function openCatalog(cat: Catalog, cwd: string): Promise<OpenCatalog> {
  const exists = (p: string) =>
    stat(p).then(
      () => true,
      () => false,
    );
  const local = await exists(resolve(cwd, cat.source));
  const parsed = parseSource(cat.source, () => local);
  if (!parsed.ok) throw new CodedError('invalid-input', `[sources].${cat.name}: ${parsed.error.message}`);
  const spec = parsed.value;
  if (spec.kind === 'local') {
    const base = resolve(cwd, spec.path, cat.path ?? '');
    if (!(await exists(base)))
      throw new CodedError('invalid-input', `[sources].${cat.name}: local path not found: ${base}`);
    const candidates = (await loadableFolders(base)).map((f): CandidateOrigin => ({
      candidate: candidateOf(f.skill, `catalog:${cat.name}:${f.name}`, `catalog ${cat.name}`),
      dir: at(f.abs),
      source: `file:${f.abs}`,
      canonical: `file:${f.abs}`,
      kind: 'local',
      installed: false,
    }));
    return { candidates, dispose: () => Promise.resolve() };
  }
  if (spec.kind === 'wellknown')
    throw new CodedError(
      'invalid-input',
      `[sources].${cat.name}: a discovery index cannot be a catalog — install from it`,
    );
  const url = spec.kind === 'git' ? spec.url : `https://github.com/${spec.owner}/${spec.repo}.git`;
  const clone = await cloneRepo(url, cat.ref ?? spec.ref, `[sources].${cat.name} (${url})`, true);
  const sub = (cat.path ?? spec.subpath ?? '').replace(/^\/+|\/+$/g, '');
  const extra: Array<() => Promise<void>> = [];
  const candidates: CandidateOrigin[] = [];
  const seen = new Set<string>();
  const add = (c: CandidateOrigin) => {
    const key = `${c.candidate.name}@${c.candidate.version}`;
    if (seen.has(key)) return;
    seen.add(key);
    candidates.push(c);
  };
  const relOf = (name: string) => (sub ? `${sub}/${name}` : name);
  for (const { name, abs, skill } of await loadableFolders(join(clone.dir, sub))) {
    const source = gitSourceString(url, clone.commit, relOf(name));
    add({
      candidate: candidateOf(skill, `catalog:${cat.name}:${name}@HEAD`, `catalog ${cat.name}`),
      dir: at(abs),
      source,
      canonical: source,
      kind: 'git',
      commit: clone.commit,
      installed: false,
    });
  }
  const tags = (await git(['-C', clone.dir, 'tag', '--list'])).stdout
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => releaseTag(t) !== undefined)
    .sort();
  for (const tag of tags) {
    const { only, version } = releaseTag(tag)!;
    const commit = (await git(['-C', clone.dir, 'rev-list', '-n', '1', tag])).stdout.trim();
    const listing = await git(['-C', clone.dir, 'ls-tree', '--name-only', `${tag}:${sub || '.'}`.replace(/:\.$/, ':')]);
    if (listing.code !== 0) continue;
    for (const name of listing.stdout.split('\n').filter(Boolean)) {
      if (only !== undefined && name !== only) continue;
      const rel = relOf(name);
      const show = async (file: string): Promise<Uint8Array | undefined> => {
        const r = await git(['-C', clone.dir, 'cat-file', '-p', `${tag}:${rel}/${file}`]);
        return r.code === 0 ? Buffer.from(r.stdout, 'utf8') : undefined;
      };
      const md = await show('SKILL.md');
      if (!md) continue;
      const toml = await show('skill.toml');
      const entries: TreeEntry[] = [
        { kind: 'file', path: 'SKILL.md', bytes: md },
        ...(toml ? [{ kind: 'file' as const, path: 'skill.toml', bytes: toml }] : []),
      ];
      const loaded = loadSkill(
        { root: `${tag}:${rel}`, entries: entries.sort((a, b) => (a.path < b.path ? -1 : 1)) },
        { nameHint: name },
      );
      if (!loaded.ok) continue;
      if (only !== undefined && loaded.value.manifest.skill.version !== version) continue; // the tag names this version
      let checkedOut: string | undefined;
      const dir = async (): Promise<string> => {
        if (checkedOut) return checkedOut;
        const wt = await cloneRepo(clone.dir, tag, `[sources].${cat.name} at ${tag}`, true);
        extra.push(wt.dispose);
        checkedOut = join(wt.dir, rel);
        return checkedOut;
      };
      const source = gitSourceString(url, tag, rel);
      add({
        candidate: candidateOf(loaded.value, `catalog:${cat.name}:${name}@${tag}`, `catalog ${cat.name} (tag ${tag})`),
        dir,
        source,
        canonical: source,
        kind: 'git',
        commit,
        installed: false,
      });
    }
  }
  return {
    candidates,
    dispose: async () => {
      for (const d of extra) await d();
      await clone.dispose();
    },
  };
}
