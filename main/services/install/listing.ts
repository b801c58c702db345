import { join } from 'node:path';
import { discoverSkills } from '../../../shared/lock/discover';
import { sourceAt } from '../../../shared/lock/source';
import { openSource, type Checkout } from '../sources';
import { loadFolderAsync } from '../skills/folder';
import { mapLimit, READ_LANES } from '../skills/limit';
import { AsyncDiskView } from '../workspace/disk-view';
import { fail, formatError, ok, type Result } from '../../../shared/result';

/** One skill a source offers. */
export interface SourceSkill {
  readonly name: string;
  readonly description: string;
  /** Folder inside the source ('' when the source is the skill). */
  readonly rel: string;
  /** The source string that installs exactly this skill (same repository and ref). */
  readonly source: string;
  /** Set when the folder does not load as a skill (it is listed, and cannot be picked). */
  readonly problem?: string;
}

export interface SourceListing {
  /** True when the source itself is one skill folder (the usual single install). */
  readonly single: boolean;
  readonly skills: readonly SourceSkill[];
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
  const found = await new AsyncDiskView(co.skillDir).settle((view) => discoverSkills(view));
  const loads = await mapLimit(found, READ_LANES, (f) => {
    const folderName = (f.rel.split('/').pop() || co.subpath.split('/').pop() || co.label).replace(/\.git$/, '');
    return loadFolderAsync(join(co.skillDir, ...f.rel.split('/').filter(Boolean)), f.rel || raw, folderName);
  });
  const skills = found.map((f, i): SourceSkill => {
    const folderName = (f.rel.split('/').pop() || co.subpath.split('/').pop() || co.label).replace(/\.git$/, '');
    const source = f.rel === '' ? raw : sourceAt(co.spec, f.rel, co.spec.kind === 'local' ? co.skillDir : undefined);
    const loaded = loads[i]!;
    return loaded.ok
      ? {
          name: loaded.value.manifest.skill.name,
          description: loaded.value.manifest.skill.description,
          rel: f.rel,
          source,
        }
      : { name: folderName, description: '', rel: f.rel, source, problem: formatError(loaded.error) };
  });
  return { single: found.length === 1 && found[0]!.rel === '', skills };
}

/** A failure is `invalid-request`: a name that picks nothing, or a skill that cannot be installed. */
export type SkillPick = Result<SourceSkill[]>;

/** The skills `names` select from a listing; every name must match one loadable skill. */
export function pickSkills(listing: SourceListing, names: readonly string[]): SkillPick {
  const picked: SourceSkill[] = [];
  for (const n of new Set(names)) {
    const s = listing.skills.find((x) => x.name === n) ?? listing.skills.find((x) => x.rel.split('/').pop() === n);
    if (!s)
      return fail(
        'invalid-request',
        `no skill named "${n}" in this source (it has: ${listing.skills.map((x) => x.name).join(', ') || 'none'})`,
      );
    if (s.problem) return fail('invalid-request', `${n} cannot be installed: ${s.problem}`);
    picked.push(s);
  }
  return ok(picked);
}
