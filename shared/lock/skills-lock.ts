import { fileError, type Result } from '../result';
import type { SourceSpec } from './source';
import { isKsfName } from '../names';

/** The lock the `skills` CLI (skills.sh) writes at a project's root. */
export const SKILLS_LOCK_FILE = 'skills-lock.json';

/** One skill the `skills` CLI installed, and where it came from. */
export interface SkillsLockEntry {
  readonly name: string;
  /** `owner/repo` for GitHub, a URL for git, a path for local sources — as that CLI wrote it. */
  readonly source: string;
  readonly sourceType: string;
  /** Commit or branch the skill was taken from, when the CLI recorded one. */
  readonly ref?: string;
  /** Path of the skill's SKILL.md inside the source, when recorded. */
  readonly skillPath?: string;
}

/**
 * Read `skills-lock.json` (`{ version, skills: { <name>: { source, sourceType, ref?, skillPath?, computedHash } } }`).
 * Entries without a source, or whose name is not a valid skill name, are left out: they
 * cannot be pinned. A file that is not that shape is one error naming it.
 */
export function parseSkillsLock(text: string, file: string = SKILLS_LOCK_FILE): Result<SkillsLockEntry[]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: fileError(file, `invalid JSON: ${e instanceof Error ? e.message : String(e)}`) };
  }
  const skills = typeof json === 'object' && json !== null ? (json as { skills?: unknown }).skills : undefined;
  if (typeof skills !== 'object' || skills === null || Array.isArray(skills))
    return { ok: false, error: fileError(file, '"skills" must be an object of skill name → { source, sourceType }') };
  const out: SkillsLockEntry[] = [];
  for (const [name, raw] of Object.entries(skills as Record<string, unknown>)) {
    if (typeof raw !== 'object' || raw === null || !isKsfName(name)) continue;
    const r = raw as Record<string, unknown>;
    const str = (k: string): string | undefined =>
      typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : undefined;
    const source = str('source');
    if (source === undefined) continue;
    const ref = str('ref');
    const skillPath = str('skillPath');
    out.push({
      name,
      source,
      sourceType: str('sourceType') ?? 'github',
      ...(ref !== undefined ? { ref } : {}),
      ...(skillPath !== undefined ? { skillPath } : {}),
    });
  }
  return { ok: true, value: out.sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

/**
 * The Skillsmith source string that refetches an entry: `gh:owner/repo[/folder][@ref]`,
 * `<git url>[#ref][:folder]` or `file:<path>`; undefined for a source type it cannot name.
 */
export function skillsLockSource(e: SkillsLockEntry): string | undefined {
  const folder = e.skillPath
    ?.replace(/\\/g, '/')
    .replace(/(^|\/)SKILL\.md$/, '')
    .replace(/^\.?\/+|\/+$/g, '');
  if (folder !== undefined && (folder.split('/').includes('..') || /[@#\s]/.test(folder))) return undefined;
  switch (e.sourceType) {
    case 'github': {
      const m = /^(?:https:\/\/github\.com\/)?([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(e.source);
      if (!m) return undefined;
      return `gh:${m[1]}/${m[2]}${folder ? `/${folder}` : ''}${e.ref ? `@${e.ref}` : ''}`;
    }
    case 'git':
      return /^(?:https?|ssh|git|file):\/\/|^git@/.test(e.source)
        ? `${e.source}${e.ref || folder ? `#${e.ref ?? ''}${folder ? `:${folder}` : ''}` : ''}`
        : undefined;
    case 'local':
      return `file:${e.source}${folder ? `/${folder}` : ''}`;
    default:
      return undefined;
  }
}

/**
 * The `skills-lock.json` entry that fetches what a kitbash.lock `source` fetches — the inverse
 * of `skillsLockSource` — or undefined for a source that CLI cannot name (`import:local`).
 */
export function skillsLockEntryOf(name: string, source: SourceSpec): SkillsLockEntry | undefined {
  const skillPath = (sub: string | undefined) => (sub ? `${sub.replace(/^\/+|\/+$/g, '')}/SKILL.md` : 'SKILL.md');
  switch (source.kind) {
    case 'github':
      return {
        name,
        source: `${source.owner}/${source.repo}`,
        sourceType: 'github',
        ...(source.ref ? { ref: source.ref } : {}),
        skillPath: skillPath(source.subpath),
      };
    case 'git':
      return {
        name,
        source: source.url,
        sourceType: 'git',
        ...(source.ref ? { ref: source.ref } : {}),
        skillPath: skillPath(source.subpath),
      };
    case 'local':
      return { name, source: source.path, sourceType: 'local' };
    case 'wellknown':
      // Left out (named as not written): this file has no pin for a digest-checked index entry.
      return undefined;
  }
}

/**
 * `skills-lock.json` naming `entries`. A `computedHash` is that CLI's own and cannot be made
 * here, so it is carried over from `prior` (the file's `skills` as they were) for an entry that
 * still names the same source, ref and path, and left out otherwise; that CLI then computes it
 * again. Entries of `prior` that `entries` does not name are kept as they were.
 */
export function serializeSkillsLock(
  entries: readonly SkillsLockEntry[],
  prior: Readonly<Record<string, unknown>> = {},
): string {
  const skills: Record<string, unknown> = {};
  const ours = new Set(entries.map((e) => e.name));
  for (const [name, raw] of Object.entries(prior)) if (!ours.has(name)) skills[name] = raw;
  for (const e of entries) {
    const was = prior[e.name] as Record<string, unknown> | undefined;
    const same =
      was !== undefined &&
      was.source === e.source &&
      was.sourceType === e.sourceType &&
      (was.ref ?? undefined) === e.ref &&
      (was.skillPath ?? undefined) === e.skillPath;
    skills[e.name] = {
      source: e.source,
      sourceType: e.sourceType,
      ...(e.ref !== undefined ? { ref: e.ref } : {}),
      ...(e.skillPath !== undefined ? { skillPath: e.skillPath } : {}),
      ...(same && typeof was.computedHash === 'string' ? { computedHash: was.computedHash } : {}),
    };
  }
  const sorted = Object.fromEntries(Object.entries(skills).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${JSON.stringify({ version: 1, skills: sorted }, null, 2)}\n`;
}
