import { join } from 'node:path';
import { discoverSource } from '../../../shared/lock/discover';
import { sourceAt } from '../../../shared/lock/source';
import { openSource, type Checkout } from '../sources';
import { loadFolderAsync } from '../skills/folder';
import { mapLimit, READ_LANES } from '../skills/limit';
import { AsyncDiskView } from '../workspace/disk-view';
import { formatError } from '../../../shared/result';
import type { PluginPick } from '../../../shared/lock/marketplace';

/** One skill a source offers. */
export interface SourceSkill {
  readonly name: string;
  readonly description: string;
  /** Folder inside the source ('' when the source is the skill). */
  readonly rel: string;
  /** The source string that installs exactly this skill (same repository and ref). */
  readonly source: string;
  /** The plugin that names it, the collection it belongs to, or the folder it is grouped under. */
  readonly group?: string;
  /** Set when the folder does not load as a skill (it is listed, and cannot be picked). */
  readonly problem?: string;
  /** How a discovery index ships it (it has no folder to show). */
  readonly artifact?: 'skill-md' | 'archive';
  /** The plugin it belongs to (a marketplace or plugin source, SPEC D310). */
  readonly plugin?: PluginPick;
  /** The opened plugin repository `rel` is inside, when it is not the source's own checkout. */
  readonly checkout?: Checkout;
}

/** A plugin of a marketplace or plugin source, with the names of its skills. */
export interface ListedPlugin extends PluginPick {
  /** Where the plugin was fetched from (a source string), or its folder in the marketplace. */
  readonly source: string;
  readonly skills: readonly string[];
  /** Why its skills cannot be listed (a source kind not fetched, a clone that failed). */
  readonly problem?: string;
}

/** A SKILL.md folder that holds further skills: offered by its members, never installed whole. */
export interface SourceCollection {
  readonly name: string;
  readonly description: string;
  readonly rel: string;
  /** Names of the installable skills below it. */
  readonly members: readonly string[];
}

export interface SourceListing {
  /** True when the source itself is one skill folder (the usual single install). */
  readonly single: boolean;
  readonly skills: readonly SourceSkill[];
  readonly collections: readonly SourceCollection[];
  /** What discovery did not look at (limits, unreadable manifests), one line each. */
  readonly notes: readonly string[];
  /** The plugins of a marketplace or plugin source, in manifest order. */
  readonly plugins?: readonly ListedPlugin[];
}

/**
 * The skills a source holds (one clone for a git source; nothing is staged or written).
 * A repository of many skills lists each with the source string that installs it alone.
 */
export async function listSourceSkills(raw: string, cwd: string): Promise<SourceListing> {
  const co = await openSource(raw, cwd);
  try {
    return await listCheckout(co, raw);
  } finally {
    await co.dispose();
  }
}

/** listSourceSkills on a source already opened (`raw` as the user typed it). */
export async function listCheckout(co: Checkout, raw: string): Promise<SourceListing> {
  if (co.offered) return co.offered;
  const found = await new AsyncDiskView(co.skillDir).settle((view) => discoverSource(view));
  const folderName = (rel: string) =>
    (rel.split('/').pop() || co.subpath.split('/').pop() || co.label).replace(/\.git$/, '');
  const load = (rel: string) =>
    loadFolderAsync(join(co.skillDir, ...rel.split('/').filter(Boolean)), rel || raw, folderName(rel));
  const [loads, collectionLoads] = await Promise.all([
    mapLimit(found.skills, READ_LANES, (f) => load(f.rel)),
    mapLimit(found.collections, READ_LANES, (c) => load(c.rel)),
  ]);
  const nameOf = new Map<string, string>();
  found.skills.forEach((f, i) => {
    const l = loads[i]!;
    nameOf.set(f.rel, l.ok ? l.value.manifest.skill.name : folderName(f.rel));
  });
  const collections = found.collections.map((c, i): SourceCollection => {
    const l = collectionLoads[i]!;
    return {
      name: l.ok ? l.value.manifest.skill.name : folderName(c.rel),
      description: l.ok ? l.value.manifest.skill.description : '',
      rel: c.rel,
      members: c.members.map((m) => nameOf.get(m) ?? folderName(m)),
    };
  });
  const collectionName = new Map(found.collections.map((c, i) => [c.rel, collections[i]!.name]));
  const skills = found.skills.map((f, i): SourceSkill => {
    const source = f.rel === '' ? raw : sourceAt(co.spec, f.rel, co.spec.kind === 'local' ? co.skillDir : undefined);
    const group =
      f.via === 'manifest' ? f.group : f.collection !== undefined ? collectionName.get(f.collection) : f.group;
    const loaded = loads[i]!;
    const base = { rel: f.rel, source, ...(group ? { group } : {}) };
    return loaded.ok
      ? { name: loaded.value.manifest.skill.name, description: loaded.value.manifest.skill.description, ...base }
      : { name: folderName(f.rel), description: '', ...base, problem: formatError(loaded.error) };
  });
  return {
    single: skills.length === 1 && skills[0]!.rel === '' && collections.length === 0,
    skills,
    collections,
    notes: found.notes,
  };
}
