import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CodedError, type Result } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { SEMVER_RE, type Skill } from '../../../shared/ksf/model';
import { isKsfName } from '../../../shared/names';
import type { TreeEntry } from '../../../shared/ksf/tree';
import type { Catalog } from '../../../shared/project/sources';
import type { Candidate } from '../../../shared/resolve/resolve';
import { gitSourceString, parseSource } from '../../../shared/lock/source';
import { installedSkills } from '../skills/locate';
import { readSkillTree } from '../skills/reader';
import { cloneRepo, git } from '../sources/git';
import type { Checkout } from '../sources';

/** Where a candidate's files are and how the lock will name its source. */
export interface CandidateOrigin {
  readonly candidate: Candidate;
  /** Folder to stage from; a function when it must first be checked out (a git tag). */
  readonly dir: () => string;
  readonly source: string;
  readonly canonical: string;
  readonly kind: 'local' | 'git' | 'github';
  readonly commit?: string;
  readonly installed: boolean;
}

/** Read and load one skill folder; a failure is the reader's or the loader's. */
export function loadFolder(abs: string, display: string, nameHint?: string): Result<Skill> {
  const tree = readSkillTree(abs, display);
  return tree.ok ? loadSkill(tree.value, nameHint !== undefined ? { nameHint } : {}) : tree;
}

function candidateOf(skill: Skill, id: string, origin: string): Candidate {
  const m = skill.manifest;
  return { id, name: m.skill.name, version: m.skill.version, dependencies: m.dependencies, origin };
}

/** Skill folders directly inside `dir` (those with a SKILL.md), by name. */
function skillFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && existsSync(join(dir, d.name, 'SKILL.md')))
    .map((d) => d.name)
    .sort();
}

/** The other skill folders next to the requested one in its source. */
export function siblingCandidates(co: Checkout): CandidateOrigin[] {
  const out: CandidateOrigin[] = [];
  const relBase = co.siblingsDir === co.repoDir ? '' : co.subpath.split('/').slice(0, -1).join('/');
  for (const name of skillFolders(co.siblingsDir)) {
    const abs = join(co.siblingsDir, name);
    if (resolve(abs) === resolve(co.skillDir)) continue;
    const loaded = loadFolder(abs, name, name);
    if (!loaded.ok) continue;
    const rel = relBase ? `${relBase}/${name}` : name;
    const source = co.sourceFor(rel);
    out.push({
      candidate: candidateOf(loaded.value, `sibling:${rel}`, 'sibling'),
      dir: () => abs,
      source,
      canonical: source,
      kind: co.spec.kind,
      ...(co.commit ? { commit: co.commit } : {}),
      installed: false,
    });
  }
  return out;
}

/** Every installed skill, as the one version that may be used for its name. */
export function installedCandidates(root: string): CandidateOrigin[] {
  const out: CandidateOrigin[] = [];
  for (const loc of installedSkills(root)) {
    if (loc.kind !== 'folder') continue;
    const loaded = loadFolder(loc.abs, loc.display, loc.nameHint);
    if (!loaded.ok) continue;
    out.push({
      candidate: candidateOf(loaded.value, `installed:${loc.nameHint}`, 'installed'),
      dir: () => loc.abs,
      source: '',
      canonical: '',
      kind: 'local',
      installed: true,
    });
  }
  return out;
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
  dispose(): void;
}

/**
 * A catalog's skills: every skill folder at its root (or `path`), and for git
 * repositories also each version tagged `<name>@x.y.z` or `vX.Y.Z`.
 */
export function openCatalog(cat: Catalog, cwd: string): OpenCatalog {
  const parsed = parseSource(cat.source, (p) => existsSync(resolve(cwd, p)));
  if (!parsed.ok) throw new CodedError('invalid-input', `[sources].${cat.name}: ${parsed.error.message}`);
  const spec = parsed.value;
  if (spec.kind === 'local') {
    const base = resolve(cwd, spec.path, cat.path ?? '');
    if (!existsSync(base))
      throw new CodedError('invalid-input', `[sources].${cat.name}: local path not found: ${base}`);
    const candidates = skillFolders(base).flatMap((name): CandidateOrigin[] => {
      const abs = join(base, name);
      const loaded = loadFolder(abs, name, name);
      if (!loaded.ok) return [];
      return [
        {
          candidate: candidateOf(loaded.value, `catalog:${cat.name}:${name}`, `catalog ${cat.name}`),
          dir: () => abs,
          source: `file:${abs}`,
          canonical: `file:${abs}`,
          kind: 'local',
          installed: false,
        },
      ];
    });
    return { candidates, dispose: () => undefined };
  }
  const url = spec.kind === 'git' ? spec.url : `https://github.com/${spec.owner}/${spec.repo}.git`;
  const clone = cloneRepo(url, cat.ref ?? spec.ref, `[sources].${cat.name} (${url})`, true);
  const sub = (cat.path ?? spec.subpath ?? '').replace(/^\/+|\/+$/g, '');
  const extra: Array<() => void> = [];
  const candidates: CandidateOrigin[] = [];
  const seen = new Set<string>();
  const add = (c: CandidateOrigin) => {
    const key = `${c.candidate.name}@${c.candidate.version}`;
    if (seen.has(key)) return;
    seen.add(key);
    candidates.push(c);
  };
  const relOf = (name: string) => (sub ? `${sub}/${name}` : name);
  for (const name of skillFolders(join(clone.dir, sub))) {
    const abs = join(clone.dir, sub, name);
    const loaded = loadFolder(abs, name, name);
    if (!loaded.ok) continue;
    const source = gitSourceString(url, clone.commit, relOf(name));
    add({
      candidate: candidateOf(loaded.value, `catalog:${cat.name}:${name}@HEAD`, `catalog ${cat.name}`),
      dir: () => abs,
      source,
      canonical: source,
      kind: 'git',
      commit: clone.commit,
      installed: false,
    });
  }
  const tags = git(['-C', clone.dir, 'tag', '--list'])
    .stdout.split('\n')
    .map((t) => t.trim())
    .filter((t) => releaseTag(t) !== undefined)
    .sort();
  for (const tag of tags) {
    const { only, version } = releaseTag(tag)!;
    const commit = git(['-C', clone.dir, 'rev-list', '-n', '1', tag]).stdout.trim();
    const listing = git(['-C', clone.dir, 'ls-tree', '--name-only', `${tag}:${sub || '.'}`.replace(/:\.$/, ':')]);
    if (listing.code !== 0) continue;
    for (const name of listing.stdout.split('\n').filter(Boolean)) {
      if (only !== undefined && name !== only) continue;
      const rel = relOf(name);
      const show = (file: string): Uint8Array | undefined => {
        const r = git(['-C', clone.dir, 'cat-file', '-p', `${tag}:${rel}/${file}`]);
        return r.code === 0 ? Buffer.from(r.stdout, 'utf8') : undefined;
      };
      const md = show('SKILL.md');
      if (!md) continue;
      const toml = show('skill.toml');
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
      const dir = (): string => {
        if (checkedOut) return checkedOut;
        const wt = cloneRepo(clone.dir, tag, `[sources].${cat.name} at ${tag}`, true);
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
    dispose: () => {
      for (const d of extra) d();
      clone.dispose();
    },
  };
}
