import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  insidePath,
  MAX_MANIFEST_BYTES,
  marketplaceFiles,
  marketplaceRoot,
  NO_OTHER_POWERS,
  otherPowers,
  parseMarketplace,
  pluginSourceString,
  readPluginManifests,
  type Marketplace,
  type MarketplaceEntry,
  type MarketplaceKind,
  type PluginPick,
} from '../../../shared/lock/marketplace';
import { CodedError } from '../../../shared/result';
import { formatBytes } from '../../../shared/text/format';
import { resolveInside } from '../fs/contain';
import { httpGet } from '../net/http-get';
import { mapLimit } from '../skills/limit';
import { openSource, type Checkout } from '../sources';
import { AsyncDiskView } from '../workspace/disk-view';
import { listCheckout, type ListedPlugin, type SourceListing, type SourceSkill } from './listing';

/**
 * What `install` opened: the listing, the checkout of a repository source (absent for a
 * manifest file or URL), and every clone to give back.
 */
export interface OpenedSource {
  readonly co?: Checkout;
  readonly listing: SourceListing;
  dispose(): Promise<void>;
}

/** Remote plugins cloned at a time while a marketplace is listed. */
const CLONE_LANES = 4;

/** A `.json` file named as the source is a marketplace, except under `/.well-known/` (discovery indexes). */
const MARKETPLACE_JSON = /^(?!.*\/\.well-known\/).*\.json$/i;

const isJsonUrl = (raw: string): boolean => {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && MARKETPLACE_JSON.test(u.pathname);
  } catch {
    return false;
  }
};

/**
 * Open an install source and list its skills. A marketplace.json given as a path or an
 * http(s) URL, a repository holding a Claude Code or Codex marketplace, and a plugin folder
 * (a `plugin.json` at its root) list their plugins' skills with each plugin's identity and
 * its other powers; a plugin in another repository is cloned to list it (SPEC D310–D311).
 */
export async function openInstallSource(raw: string, cwd: string): Promise<OpenedSource> {
  if (isJsonUrl(raw)) {
    const got = await httpGet({ url: raw, maxBytes: MAX_MANIFEST_BYTES });
    if (!got.ok) throw CodedError.of(got.error);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(got.value.body);
    return fromManifest(text, raw, marketplaceRoot(new URL(raw).pathname).kind, cwd);
  }
  const local =
    MARKETPLACE_JSON.test(raw) && !/^[a-z][\w+.-]*:\/\//i.test(raw)
      ? resolve(cwd, raw.replace(/^file:/, ''))
      : undefined;
  const st = local ? await stat(local).catch(() => undefined) : undefined;
  if (local && st?.isFile()) {
    if (st.size > MAX_MANIFEST_BYTES)
      throw new CodedError(
        'invalid-input',
        `${raw}: ${formatBytes(st.size)}, more than the ${formatBytes(MAX_MANIFEST_BYTES)} a marketplace may be — not read`,
      );
    const { kind, rootDepth } = marketplaceRoot(local);
    let root = local;
    for (let i = 0; i < rootDepth; i++) root = dirname(root);
    const folder = await openSource(`file:${root}`, cwd);
    return fromManifest(await readFile(local, 'utf8'), raw, kind, cwd, folder);
  }
  const co = await openSource(raw, cwd);
  try {
    const listing = await listCheckout(co, raw);
    const view = new AsyncDiskView(co.skillDir);
    for (const [kind, file] of marketplaceFiles()) {
      const text = await view.settle((v) => v.read(file));
      if (text === undefined) continue;
      const parsed = parseMarketplace(text, file, kind);
      // An unreadable marketplace in a repository leaves the walk's listing (SPEC D292).
      if (!parsed.ok) return withDispose({ ...listing, notes: [...listing.notes, parsed.error.message] }, co);
      const plugins = await openPlugins(parsed.value, raw, cwd, co, listing);
      return withDispose(plugins.listing, co, plugins.clones);
    }
    const manifests = await view.settle((v) => readPluginManifests(v));
    if (manifests.length > 0) {
      const pick = await pluginPick(co.skillDir, undefined, undefined);
      return withDispose(annotate(listing, pick, [''], raw), co);
    }
    return withDispose(listing, co);
  } catch (e) {
    await co.dispose();
    throw e;
  }
}

function withDispose(listing: SourceListing, co: Checkout | undefined, clones: readonly Checkout[] = []): OpenedSource {
  return {
    ...(co ? { co } : {}),
    listing,
    dispose: async () => {
      for (const c of clones) await c.dispose();
      await co?.dispose();
    },
  };
}

/** A marketplace read from a file or a URL: `folder` is its repository (a file's), for plugins given as paths. */
async function fromManifest(
  text: string,
  raw: string,
  kind: MarketplaceKind,
  cwd: string,
  folder?: Checkout,
): Promise<OpenedSource> {
  const parsed = parseMarketplace(text, raw, kind);
  if (!parsed.ok) {
    await folder?.dispose();
    throw CodedError.of(parsed.error);
  }
  try {
    // A file's folder is its marketplace's repository: listed as one, plugin folders and all.
    const base: SourceListing = folder
      ? await listCheckout(folder, raw)
      : { single: false, skills: [], collections: [], notes: [] };
    const opened = await openPlugins(parsed.value, raw, cwd, folder, base);
    return withDispose(opened.listing, folder, opened.clones);
  } catch (e) {
    await folder?.dispose();
    throw e;
  }
}

/** What the plugin folder at `dir` is and carries, for the review and the lock. */
async function pluginPick(
  dir: string,
  entry: MarketplaceEntry | undefined,
  market: { name: string; source: string } | undefined,
): Promise<PluginPick> {
  const view = new AsyncDiskView(dir);
  const { manifests, powers } = await view.settle((v) => {
    const m = readPluginManifests(v);
    return { manifests: m, powers: otherPowers(v, m) };
  });
  const name = manifests.find((m) => m.name)?.name ?? entry?.name ?? dir.split(/[\\/]/).pop() ?? 'plugin';
  const version = manifests.find((m) => m.version)?.version ?? entry?.version;
  const description = manifests.find((m) => m.description)?.description ?? entry?.description;
  return {
    provenance: {
      name,
      ...(version ? { version } : {}),
      ...(market ? { marketplace: market.name, marketplaceSource: market.source } : {}),
    },
    ...(description ? { description } : {}),
    powers,
  };
}

/**
 * The listing's skills under `bases` (folders of a plugin in the source) marked as that
 * plugin's; a skill an earlier plugin claimed stays its (as discovery groups it).
 */
function annotate(listing: SourceListing, pick: PluginPick, bases: readonly string[], source: string): SourceListing {
  const under = (rel: string) => bases.some((b) => b === '' || rel === b || rel.startsWith(`${b}/`));
  const mine = new Set(listing.skills.filter((s) => s.plugin === undefined && under(s.rel)));
  const skills = listing.skills.map((s) => (mine.has(s) ? { ...s, plugin: pick, group: pick.provenance.name } : s));
  const plugin: ListedPlugin = { ...pick, source, skills: [...mine].map((s) => s.name) };
  return { ...listing, single: false, skills, plugins: [...(listing.plugins ?? []), plugin] };
}

/**
 * Every plugin of a marketplace: one in the marketplace's repository is its folder there
 * (its skills already in `base`); one in another repository is cloned and listed. A plugin
 * that cannot be had is listed with why, and the others still are.
 */
async function openPlugins(
  m: Marketplace,
  raw: string,
  cwd: string,
  co: Checkout | undefined,
  base: SourceListing,
): Promise<{ listing: SourceListing; clones: Checkout[] }> {
  const market = { name: m.name, source: raw };
  const clones: Checkout[] = [];
  const opened = await mapLimit(m.plugins, CLONE_LANES, async (entry) => {
    const loc = entry.location;
    try {
      if (loc.kind === 'unsupported') return { entry, problem: loc.why };
      if (loc.kind === 'path') {
        if (!co)
          return {
            entry,
            problem: `its source is a path ("./${loc.path}"), and a marketplace read from a URL has no folder — add the marketplace's repository instead`,
          };
        const dir = loc.path === '' ? co.skillDir : resolveInside(co.skillDir, loc.path);
        if (dir === undefined) return { entry, problem: `"${loc.path}" leaves the marketplace's folder` };
        if (!(await stat(dir).catch(() => undefined))?.isDirectory())
          return { entry, problem: `folder "${loc.path}" not found in the marketplace` };
        return { entry, path: loc.path, pick: await pluginPick(dir, entry, market) };
      }
      const source = pluginSourceString(loc);
      const pco = await openSource(source, cwd);
      clones.push(pco);
      return { entry, source, pco, pick: await pluginPick(pco.skillDir, entry, market) };
    } catch (e) {
      return { entry, problem: (e instanceof Error ? e.message : String(e)).split('\n')[0]! };
    }
  });
  let listing: SourceListing = { ...base, single: false };
  const notes = [...base.notes];
  for (const o of opened) {
    if ('problem' in o) {
      const provenance = {
        name: o.entry.name,
        ...(o.entry.version ? { version: o.entry.version } : {}),
        marketplace: m.name,
        marketplaceSource: raw,
      };
      const pick: PluginPick = { provenance, powers: NO_OTHER_POWERS };
      listing = {
        ...listing,
        plugins: [...(listing.plugins ?? []), { ...pick, source: '', skills: [], problem: o.problem! }],
      };
      continue;
    }
    if (o.path !== undefined) {
      // A plugin in the marketplace's own folder: its skills are in that folder's listing.
      const path = o.path;
      const bases = o.entry.skills?.map((s) => [path, insidePath(s)].filter(Boolean).join('/')) ?? [path];
      listing = annotate(listing, o.pick!, bases, path === '' ? raw : `${raw} → ./${path}`);
      continue;
    }
    const own = await listCheckout(o.pco!, o.source!);
    const skills = own.skills.map((s): SourceSkill => ({
      ...s,
      checkout: o.pco!,
      plugin: o.pick!,
      group: o.pick!.provenance.name,
    }));
    notes.push(...own.notes.map((n) => `plugin ${o.pick!.provenance.name}: ${n}`));
    listing = {
      ...listing,
      skills: [...listing.skills, ...skills],
      plugins: [...(listing.plugins ?? []), { ...o.pick!, source: o.source!, skills: skills.map((s) => s.name) }],
    };
  }
  return { listing: { ...listing, notes }, clones };
}
