import type { ProjectFiles } from '../targets/types';
import { plural } from '../text/format';

/** What discovery reads of a source's files ('/'-separated paths relative to the source folder). */
export type SourceView = Pick<ProjectFiles, 'read' | 'list'>;

/** A skill folder of a source. */
export interface FoundSkill {
  /** Folder path relative to the source folder ('' for the folder itself). */
  readonly rel: string;
  /** 'manifest': a plugin or marketplace manifest names it; 'walk': found by looking through the folders. */
  readonly via: 'manifest' | 'walk';
  /** The plugin that names it (manifest), else the folder it is grouped under (`.curated`, `(writing)`). */
  readonly group?: string;
  /** The nearest collection it lies in, when it lies in one. */
  readonly collection?: string;
}

/** A SKILL.md folder that holds further skills: offered by its members, never installed whole. */
export interface FoundCollection {
  readonly rel: string;
  /** Every installable skill folder below it. */
  readonly members: readonly string[];
}

export interface Discovery {
  /** The installable skill folders, manifest-named first, then in path order. */
  readonly skills: readonly FoundSkill[];
  readonly collections: readonly FoundCollection[];
  /** What was not looked at (walk limits, manifests that could not be read), one line each. */
  readonly notes: readonly string[];
}

export interface WalkLimits {
  /** Folders below the source folder that are looked into. */
  readonly depth: number;
  /** Folders listed in all. */
  readonly folders: number;
}

/** Deep enough for plugins/<p>/skills/<group>/<skill>/ with room to spare; bounded for a monorepo. */
export const WALK_LIMITS: WalkLimits = { depth: 8, folders: 10_000 };

/** Never looked into: version control and installed packages hold copies of other projects. */
const NEVER = new Set(['.git', '.hg', '.svn', 'node_modules', '__pycache__', '.venv']);
/** Vendored or built copies: listed only when the folder itself is a skill, never walked below. */
const VENDORED = new Set(['vendor', 'third_party', 'dist', 'build']);
const MARKERS = ['SKILL.md', 'skill.toml'];

const join = (...parts: string[]): string =>
  parts
    .join('/')
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');

/** A manifest-relative path that stays inside the source, normalised; undefined otherwise. */
function inside(path: string): string | undefined {
  const p = join(path.replace(/\\/g, '/'));
  return path.startsWith('/') || p.split('/').includes('..') ? undefined : p;
}

const lastSegment = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);
const parentOf = (rel: string): string => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');

/**
 * True when every segment of `rel` is a real folder in its parent's listing: a manifest
 * path through a symlink is never followed (it could lead out of the source).
 */
function realFolder(v: SourceView, rel: string): boolean {
  if (rel === '') return true;
  return (
    realFolder(v, parentOf(rel)) && v.list(parentOf(rel)).some((e) => e.kind === 'dir' && e.name === lastSegment(rel))
  );
}

class Walker {
  readonly found = new Set<string>();
  readonly notes: string[] = [];
  private listed = 0;
  private deep = 0;
  private readonly seen = new Set<string>();

  constructor(
    private readonly v: SourceView,
    private readonly limits: WalkLimits,
  ) {}

  /** Every skill folder at or below `rel`, within the limits; symlinked folders are not entered. */
  walk(rel: string): string[] {
    this.visit(rel, true);
    return [...this.found].filter((r) => within(r, rel)).sort();
  }

  /** The walk's own notes: the folder limit, and how many folders were too deep to look below. */
  limitNotes(): string[] {
    return this.deep === 0
      ? this.notes
      : [
          ...this.notes,
          `${plural(this.deep, 'folder')} deeper than ${this.limits.depth} levels ${this.deep === 1 ? 'was' : 'were'} not looked into`,
        ];
  }

  private visit(rel: string, descend: boolean): void {
    if (this.seen.has(rel)) return;
    this.seen.add(rel);
    if (this.listed >= this.limits.folders) {
      if (this.listed++ === this.limits.folders)
        this.notes.push(
          `stopped looking after ${this.limits.folders} folders — name a folder of the source (owner/repo/path) to list past it`,
        );
      return;
    }
    this.listed++;
    const entries = this.v.list(rel);
    if (entries.some((e) => e.kind !== 'dir' && MARKERS.includes(e.name))) this.found.add(rel);
    if (!descend) return;
    const dirs = entries.filter((e) => e.kind === 'dir' && !NEVER.has(e.name));
    const depth = rel === '' ? 0 : rel.split('/').length;
    if (depth >= this.limits.depth) {
      this.deep += dirs.length;
      return;
    }
    for (const d of dirs.sort((a, b) => (a.name < b.name ? -1 : 1)))
      this.visit(join(rel, d.name), !VENDORED.has(d.name));
  }
}

const within = (r: string, base: string): boolean => base === '' || r === base || r.startsWith(`${base}/`);

interface Named {
  readonly rels: readonly string[];
  readonly group: string;
}

function readJson(v: SourceView, rel: string, notes: string[]): Record<string, unknown> | undefined {
  const text = v.read(rel);
  if (text === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json as Record<string, unknown>;
  } catch {
    // reported below
  }
  notes.push(`${rel}: not a JSON object — the skills it names are found by looking through the folders instead`);
  return undefined;
}

const str = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : undefined);
const strings = (x: unknown): string[] =>
  typeof x === 'string' ? [x] : Array.isArray(x) ? x.filter((s) => typeof s === 'string') : [];

/**
 * The skills a plugin folder holds: its own `skills/` folder plus the paths its Claude Code
 * (`.claude-plugin/plugin.json`) or Codex (`.codex-plugin/plugin.json`) manifest names.
 */
function pluginSkills(
  v: SourceView,
  w: Walker,
  base: string,
  fallbackName: string,
  notes: string[],
  only?: string[],
): Named {
  const manifests = ['.claude-plugin/plugin.json', '.codex-plugin/plugin.json'].map((m) =>
    readJson(v, join(base, m), notes),
  );
  const name = manifests.map((m) => str(m?.name)).find(Boolean) ?? fallbackName;
  const paths = only ?? ['skills', ...manifests.flatMap((m) => strings(m?.skills))];
  const rels: string[] = [];
  for (const p of paths) {
    const rel = inside(join(base, p));
    if (rel === undefined || !realFolder(v, rel)) continue;
    rels.push(...w.walk(rel));
  }
  return { rels, group: name };
}

/** A marketplace entry's plugin folder, when it is in this source (a remote plugin is another repository). */
function localPluginPath(entry: Record<string, unknown>, pluginRoot: string): string | undefined {
  const src = entry.source;
  const path =
    typeof src === 'string'
      ? src
      : typeof src === 'object' && src !== null && (src as { source?: unknown }).source === 'local'
        ? str((src as { path?: unknown }).path)
        : undefined;
  if (path === undefined) return undefined;
  return inside(path.startsWith('./') || path.startsWith('../') || pluginRoot === '' ? path : join(pluginRoot, path));
}

/** Skills named by the marketplaces and plugin manifests at the source's root. */
function manifestSkills(v: SourceView, w: Walker, notes: string[]): Named[] {
  const out: Named[] = [];
  for (const file of ['.claude-plugin/marketplace.json', '.agents/plugins/marketplace.json']) {
    const json = readJson(v, file, notes);
    const plugins = json?.plugins;
    if (!Array.isArray(plugins)) continue;
    const meta = json?.metadata;
    const pluginRoot =
      typeof meta === 'object' && meta !== null
        ? (inside(str((meta as { pluginRoot?: unknown }).pluginRoot) ?? '') ?? '')
        : '';
    for (const p of plugins as unknown[]) {
      if (typeof p !== 'object' || p === null) continue;
      const entry = p as Record<string, unknown>;
      const base = localPluginPath(entry, pluginRoot);
      if (base === undefined || !realFolder(v, base)) continue;
      const listed = Array.isArray(entry.skills) ? strings(entry.skills) : undefined;
      out.push(pluginSkills(v, w, base, str(entry.name) ?? (lastSegment(base) || 'plugin'), notes, listed));
    }
  }
  // The source itself as one plugin (its manifest at the root, no marketplace).
  if (
    out.length === 0 &&
    ['.claude-plugin/plugin.json', '.codex-plugin/plugin.json'].some((m) => v.read(m) !== undefined)
  ) {
    out.push(pluginSkills(v, w, '', 'plugin', notes));
  }
  return out;
}

/** The folder a walked skill is grouped under: its nearest parent folder that is not a `skills/` folder. */
function folderGroup(rel: string): string | undefined {
  const parents = rel
    .split('/')
    .slice(0, -1)
    .filter((s) => s !== 'skills');
  return parents.pop();
}

/**
 * Every skill of a source: each folder holding a SKILL.md (or skill.toml) at any depth,
 * dot-folders and `(group)` folders included, within `limits`; version-control, package and
 * vendored folders left out. Plugin and marketplace manifests name the plugin each skill
 * belongs to and are listed first. A skill folder holding further skills is a collection.
 */
export function discoverSource(v: SourceView, limits: WalkLimits = WALK_LIMITS): Discovery {
  const notes: string[] = [];
  const w = new Walker(v, limits);
  const named = manifestSkills(v, w, notes);
  const all = new Set([...named.flatMap((n) => n.rels), ...w.walk('')]);
  // Each skill's skill-folder ancestors, nearest first: those ancestors are collections.
  const ancestors = new Map<string, string[]>();
  for (const rel of all) {
    const up: string[] = [];
    for (let p = rel; p !== '';) {
      p = parentOf(p);
      if (all.has(p)) up.push(p);
    }
    ancestors.set(rel, up);
  }
  const collectionRels = new Set([...ancestors.values()].flat());
  const collections = [...collectionRels].sort().map((rel) => ({
    rel,
    members: [...all].filter((o) => !collectionRels.has(o) && ancestors.get(o)!.includes(rel)).sort(),
  }));
  const skills: FoundSkill[] = [];
  const seen = new Set<string>();
  const add = (rel: string, via: FoundSkill['via'], group: string | undefined) => {
    if (seen.has(rel) || collectionRels.has(rel)) return;
    seen.add(rel);
    const collection = ancestors.get(rel)![0];
    skills.push({ rel, via, ...(group ? { group } : {}), ...(collection !== undefined ? { collection } : {}) });
  };
  for (const n of named) for (const rel of n.rels) add(rel, 'manifest', n.group);
  for (const rel of [...all].sort()) add(rel, 'walk', folderGroup(rel));
  return { skills, collections, notes: [...notes, ...w.limitNotes()] };
}
