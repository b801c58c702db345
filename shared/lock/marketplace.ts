import { fail, ok, type Result } from '../result';
import { plural } from '../text/format';
import type { SourceView } from './discover';
import { gitSourceString } from './source';

/**
 * Claude Code and Codex plugin marketplaces and plugins as install sources (SPEC D310–D313).
 * Pure: main/ fetches the manifest text and opens each plugin's folder; this decides what
 * the manifests say, where each plugin lives, and what a plugin carries besides its skills.
 */

/** Marketplace and plugin manifests larger than this are refused unread (real ones are a few KiB). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

export type MarketplaceKind = 'claude' | 'codex';

/** Where a marketplace's plugin lives. */
export type PluginLocation =
  /** A folder of the marketplace's own repository ('/'-separated, inside it). */
  | { readonly kind: 'path'; readonly path: string }
  /** Another git repository; `subpath` is the plugin's folder in it. */
  | {
      readonly kind: 'git';
      readonly url: string;
      readonly ref?: string;
      readonly sha?: string;
      readonly subpath?: string;
    }
  | {
      readonly kind: 'github';
      readonly owner: string;
      readonly repo: string;
      readonly ref?: string;
      readonly sha?: string;
      readonly subpath?: string;
    }
  /** A source kind Skillsmith does not fetch (npm, pip, …): listed with why. */
  | { readonly kind: 'unsupported'; readonly why: string };

export interface MarketplaceEntry {
  readonly name: string;
  readonly description?: string;
  readonly version?: string;
  readonly location: PluginLocation;
  /** The entry's own `skills` paths (Claude Code), relative to the plugin folder. */
  readonly skills?: readonly string[];
}

export interface Marketplace {
  readonly kind: MarketplaceKind;
  readonly name: string;
  readonly plugins: readonly MarketplaceEntry[];
}

/**
 * A plugin's identity as the lock records it for each skill installed from it (SPEC D312):
 * provenance to show, never part of the skill's content hash.
 */
export interface PluginProvenance {
  readonly name: string;
  readonly version?: string;
  /** The marketplace's `name`, when the plugin was picked from one. */
  readonly marketplace?: string;
  /** Where that marketplace was read from, as the user gave it. */
  readonly marketplaceSource?: string;
}

/** What a plugin would deliver to an agent besides its skills; Skillsmith installs none of it (SPEC D313). */
export interface OtherPowers {
  readonly hooks: number;
  readonly mcpServers: readonly string[];
  readonly lspServers: readonly string[];
  readonly commands: number;
  readonly agents: number;
  readonly outputStyles: number;
  readonly apps: number;
}

/** A plugin a skill is picked from: who it is, and what else it would give the agent. */
export interface PluginPick {
  readonly provenance: PluginProvenance;
  readonly description?: string;
  readonly powers: OtherPowers;
}

const MARKETPLACE_FILES: Readonly<Record<MarketplaceKind, string>> = {
  claude: '.claude-plugin/marketplace.json',
  codex: '.agents/plugins/marketplace.json',
};
export const PLUGIN_MANIFESTS = ['.claude-plugin/plugin.json', '.codex-plugin/plugin.json'] as const;

/** The marketplace manifests a repository may hold at its root, with the kind each is. */
export const marketplaceFiles = (): readonly (readonly [MarketplaceKind, string])[] =>
  Object.entries(MARKETPLACE_FILES) as [MarketplaceKind, string][];

/**
 * The kind of a marketplace file from its path or URL, and the folder its relative plugin
 * paths resolve from (the folder holding `.claude-plugin/` or `.agents/`); '' for a file elsewhere.
 */
export function marketplaceRoot(path: string): { kind: MarketplaceKind; rootDepth: number } {
  const p = path.replace(/\\/g, '/').replace(/[?#].*$/, '');
  if (p.endsWith(`/${MARKETPLACE_FILES.codex}`) || p === MARKETPLACE_FILES.codex)
    return { kind: 'codex', rootDepth: 3 };
  if (p.endsWith(`/${MARKETPLACE_FILES.claude}`) || p === MARKETPLACE_FILES.claude)
    return { kind: 'claude', rootDepth: 2 };
  return { kind: 'claude', rootDepth: 1 };
}

const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x.trim() : undefined);
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A '/'-path inside the marketplace or plugin: no `..`, not absolute; normalised. */
export function insidePath(path: string): string | undefined {
  const p = path.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return undefined;
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  return parts.includes('..') ? undefined : parts.join('/');
}

/** Git URL schemes a marketplace may point a plugin at: never `file:` or `ext::` (this machine's files, a command). */
const REMOTE_GIT = /^(?:https?:\/\/|ssh:\/\/|git:\/\/|git@[\w.-]+:)/;
const GITHUB_REPO = /^([\w.-]+)\/([\w.-]+)$/;
const GIT_REF = /^[^\s\0-][^\s\0]*$/;

/** Parse one plugin entry's `source` (Claude Code's and Codex's schemas). */
function location(src: unknown, pluginRoot: string, name: string): Result<PluginLocation> {
  const bad = (why: string) => fail('invalid-input', `plugin "${name}": ${why}`);
  if (typeof src === 'string' || (isObject(src) && src.source === 'local')) {
    const raw = typeof src === 'string' ? src : str(src.path);
    if (raw === undefined) return bad('a local source without a path');
    const bare = !raw.startsWith('./') && !raw.startsWith('../');
    const path = insidePath(bare && pluginRoot !== '' ? `${pluginRoot}/${raw}` : raw);
    if (path === undefined)
      return bad(`source "${raw}" leaves the marketplace's folder — only paths inside it are read`);
    return ok({ kind: 'path', path });
  }
  if (!isObject(src)) return bad('"source" is neither a path nor an object');
  const ref = str(src.ref);
  const sha = str(src.sha);
  for (const r of [ref, sha])
    if (r !== undefined && !GIT_REF.test(r)) return bad(`"${r}" is not a valid branch, tag, or commit name`);
  const pins = { ...(ref ? { ref } : {}), ...(sha ? { sha } : {}) };
  const sub = str(src.path);
  const subpath = sub === undefined ? undefined : insidePath(sub);
  if (sub !== undefined && (subpath === undefined || subpath === ''))
    return bad(`path "${sub}" is not a folder inside the plugin's repository`);
  const at = subpath ? { subpath } : {};
  switch (src.source) {
    case 'github': {
      const m = GITHUB_REPO.exec(str(src.repo) ?? '');
      if (!m) return bad('a github source needs "repo": "owner/name"');
      return ok({ kind: 'github', owner: m[1]!, repo: m[2]!, ...pins, ...at });
    }
    case 'url':
    case 'git':
    case 'git-subdir': {
      const url =
        str(src.url) ?? (GITHUB_REPO.test(str(src.repo) ?? '') ? `https://github.com/${str(src.repo)}.git` : undefined);
      if (url === undefined) return bad(`a ${String(src.source)} source needs "url"`);
      if (!REMOTE_GIT.test(url)) return bad(`url "${url}" is not a remote git URL (https, ssh or git)`);
      if (src.source === 'git-subdir' && !subpath) return bad('a git-subdir source needs "path"');
      return ok({ kind: 'git', url, ...pins, ...at });
    }
    default:
      return ok({
        kind: 'unsupported',
        why: `its source is ${typeof src.source === 'string' ? `"${src.source}"` : 'of no known kind'}, which Skillsmith does not fetch — install it in the agent`,
      });
  }
}

/**
 * Parse a marketplace.json. A malformed file, or a plugin whose path leaves the
 * marketplace's folder, refuses the whole marketplace (one line naming the file): a
 * manifest that tries to read outside its repository is not trusted for the rest either.
 */
export function parseMarketplace(text: string, file: string, kind: MarketplaceKind): Result<Marketplace> {
  const bad = (why: string) => fail('invalid-input', `${file}: ${why}`);
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return bad(`not valid JSON (${e instanceof Error ? e.message.split('\n')[0] : 'parse error'})`);
  }
  if (!isObject(json)) return bad('not a marketplace — expected a JSON object with "name" and "plugins"');
  if (!Array.isArray(json.plugins)) return bad('not a marketplace — "plugins" is missing or not a list');
  const meta = isObject(json.metadata) ? json.metadata : {};
  const pluginRoot = insidePath(str(meta.pluginRoot) ?? '');
  if (pluginRoot === undefined)
    return bad(`metadata.pluginRoot "${String(meta.pluginRoot)}" leaves the marketplace's folder`);
  const plugins: MarketplaceEntry[] = [];
  const names = new Set<string>();
  for (const [i, p] of json.plugins.entries()) {
    if (!isObject(p)) return bad(`plugins[${i}] is not an object`);
    const name = str(p.name);
    if (name === undefined) return bad(`plugins[${i}] has no "name"`);
    if (names.has(name)) return bad(`plugin "${name}" is listed twice`);
    names.add(name);
    const loc = location(p.source, pluginRoot, name);
    if (!loc.ok) return bad(loc.error.message);
    const skills = Array.isArray(p.skills) ? p.skills.filter((s): s is string => typeof s === 'string') : undefined;
    for (const s of skills ?? [])
      if (insidePath(s) === undefined) return bad(`plugin "${name}": skills path "${s}" leaves the plugin's folder`);
    plugins.push({
      name,
      location: loc.value,
      ...(str(p.description) ? { description: str(p.description)! } : {}),
      ...(str(p.version) ? { version: str(p.version)! } : {}),
      ...(skills ? { skills } : {}),
    });
  }
  return ok({ kind, name: str(json.name) ?? 'marketplace', plugins });
}

/** The Skillsmith source string that fetches the folder `rel` of a remote plugin, pinned to its sha (else ref). */
export function pluginSourceString(loc: Extract<PluginLocation, { kind: 'git' | 'github' }>, rel = ''): string {
  const sub = [loc.subpath ?? '', rel].filter(Boolean).join('/');
  const pin = loc.sha ?? loc.ref;
  if (loc.kind === 'github') return `gh:${loc.owner}/${loc.repo}${sub ? `/${sub}` : ''}${pin ? `@${pin}` : ''}`;
  return gitSourceString(loc.url, pin, sub || undefined);
}

/** What a plugin's own manifest says of it (the first of Claude Code's and Codex's that reads). */
export interface PluginManifest {
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  readonly json: Record<string, unknown>;
}

/** The plugin manifests at the root of `v` (a plugin folder), parsed; unreadable ones are skipped. */
export function readPluginManifests(v: SourceView): PluginManifest[] {
  const out: PluginManifest[] = [];
  for (const m of PLUGIN_MANIFESTS) {
    const text = v.read(m);
    if (text === undefined || text.length > MAX_MANIFEST_BYTES) continue;
    try {
      const json: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
      if (!isObject(json)) continue;
      out.push({
        json,
        ...(str(json.name) ? { name: str(json.name)! } : {}),
        ...(typeof json.version === 'string' ? { version: json.version } : {}),
        ...(str(json.description) ? { description: str(json.description)! } : {}),
      });
    } catch {
      // discovery notes an unreadable manifest; the plugin is then named by its entry
    }
  }
  return out;
}

function jsonAt(v: SourceView, rel: string | undefined): Record<string, unknown> | undefined {
  const path = rel === undefined ? undefined : insidePath(rel);
  const text = path === undefined ? undefined : v.read(path);
  if (text === undefined || text.length > MAX_MANIFEST_BYTES) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    return isObject(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** Hook handlers in a hooks file: `{ hooks: { Event: [{ matcher, hooks: [handler…] }] } }`. */
function countHooks(json: Record<string, unknown> | undefined): number {
  const events = json && isObject(json.hooks) ? json.hooks : json;
  if (!events) return 0;
  let n = 0;
  for (const groups of Object.values(events)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) n += isObject(g) && Array.isArray(g.hooks) ? g.hooks.length : isObject(g) ? 1 : 0;
  }
  return n;
}

/** Server names of an MCP or LSP config: `{ mcpServers: {name: …} }` or the servers map itself. */
function serverNames(json: Record<string, unknown> | undefined, key: string): string[] {
  if (!json) return [];
  const map = isObject(json[key]) ? (json[key] as Record<string, unknown>) : json;
  return Object.keys(map).filter((k) => isObject(map[k]));
}

/** Files of a folder that define one thing each (commands, agents, output styles), at any depth. */
function fileCount(v: SourceView, rel: string, depth = 0): number {
  const path = insidePath(rel);
  if (path === undefined || path === '' || depth > 4) return 0;
  let n = 0;
  for (const e of v.list(path))
    n +=
      e.kind === 'dir' ? fileCount(v, `${path}/${e.name}`, depth + 1) : /\.(md|toml|json|ya?ml)$/i.test(e.name) ? 1 : 0;
  return n;
}

/** Paths a manifest field names (a string or a list), else the default. */
const pathsOf = (x: unknown, fallback: string): string[] =>
  typeof x === 'string' ? [x] : Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : [fallback];

/**
 * What a plugin folder would give an agent besides skills, from its manifests and default
 * folders: hooks (`hooks/hooks.json` or `hooks` in plugin.json), MCP servers (`.mcp.json` or
 * `mcpServers`), LSP servers (`.lsp.json` or `lspServers`), commands, agents, output styles
 * and Codex apps (`.app.json`).
 */
export function otherPowers(v: SourceView, manifests: readonly PluginManifest[]): OtherPowers {
  const field = (k: string): unknown => manifests.map((m) => m.json[k]).find((x) => x !== undefined);
  const inlineOr = (k: string, file: string): Record<string, unknown>[] => {
    const x = field(k);
    if (isObject(x)) return [x];
    return pathsOf(x, file).flatMap((p): Record<string, unknown>[] => {
      const j = jsonAt(v, p);
      return j ? [j] : [];
    });
  };
  const hooks = inlineOr('hooks', 'hooks/hooks.json').reduce((n, j) => n + countHooks(j), 0);
  const mcp = inlineOr('mcpServers', '.mcp.json').flatMap((j) => serverNames(j, 'mcpServers'));
  const lsp = inlineOr('lspServers', '.lsp.json').flatMap((j) => serverNames(j, 'lspServers'));
  const apps = inlineOr('apps', '.app.json').flatMap((j) => serverNames(j, 'apps'));
  const folders = (k: string, d: string) => pathsOf(field(k), d).reduce((n, p) => n + fileCount(v, p), 0);
  return {
    hooks,
    mcpServers: [...new Set(mcp)],
    lspServers: [...new Set(lsp)],
    commands: folders('commands', 'commands'),
    agents: folders('agents', 'agents'),
    outputStyles: folders('outputStyles', 'output-styles'),
    apps: apps.length,
  };
}

export const NO_OTHER_POWERS: OtherPowers = {
  hooks: 0,
  mcpServers: [],
  lspServers: [],
  commands: 0,
  agents: 0,
  outputStyles: 0,
  apps: 0,
};

/** The counts of what is not installed, e.g. `2 hooks, 1 MCP server`; '' when the plugin is only skills. */
export function otherPowersCounts(p: OtherPowers): string {
  return [
    p.hooks && plural(p.hooks, 'hook'),
    p.mcpServers.length && `${plural(p.mcpServers.length, 'MCP server')} (${p.mcpServers.join(', ')})`,
    p.lspServers.length && `${plural(p.lspServers.length, 'LSP server')} (${p.lspServers.join(', ')})`,
    p.commands && plural(p.commands, 'command'),
    p.agents && plural(p.agents, 'agent'),
    p.outputStyles && plural(p.outputStyles, 'output style'),
    p.apps && plural(p.apps, 'app'),
  ]
    .filter(Boolean)
    .join(', ');
}

/** The review's one plain line on what the plugin holds that Skillsmith does not install. */
export function otherPowersLine(pluginName: string, p: OtherPowers): string {
  const counts = otherPowersCounts(p);
  return counts
    ? `not installed: ${counts} of plugin ${pluginName} — Skillsmith installs its skills only; install the plugin in the agent to get them`
    : `plugin ${pluginName} holds nothing but skills`;
}

/** `name@version (from marketplace <m>)`, for the review and the listing. */
export function describePlugin(p: PluginProvenance): string {
  return `${p.name}${p.version ? `@${p.version}` : ''}${p.marketplace ? ` from marketplace ${p.marketplace}${p.marketplaceSource ? ` (${p.marketplaceSource})` : ''}` : ''}`;
}

/** The review's account of the plugin a skill is picked from. */
export interface ReviewPlugin extends PluginPick {
  /** The one line on what the plugin holds that Skillsmith does not install. */
  readonly notInstalled: string;
}

export function reviewPlugin(p: PluginPick): ReviewPlugin {
  return { ...p, notInstalled: otherPowersLine(p.provenance.name, p.powers) };
}
