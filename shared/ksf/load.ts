import { fileError, type Result, type SkillsmithError } from '../result';
import { splitFrontmatter } from './frontmatter';
import { validateManifest } from './manifest';
import { type Manifest, type Skill } from './model';
import { isKsfName } from '../names';
import { decodeUtf8 } from './text';
import { formatBytes } from '../text/format';
import { parseToml, parseTomlFile } from './toml';
import { basename, entryAt, joinDisplay, LIMITS, type SkillTree } from './tree';

export interface LoadOptions {
  /** Name to derive for a bare skill whose frontmatter has no valid name (e.g. the source folder's name). */
  readonly nameHint?: string;
}

export const BARE_DEFAULTS = {
  version: '0.0.0',
  budget: 6000,
  standing: 250,
  description: 'Imported skill (no manifest)',
} as const;

/** Loads a skill from its file tree. Pure: every byte it looks at is in `tree`. */
export function loadSkill(tree: SkillTree, options: LoadOptions = {}): Result<Skill> {
  const limit = checkLimits(tree);
  if (limit) return { ok: false, error: limit };

  const md = readText(tree, 'SKILL.md');
  if (!md.ok) return md;
  if (md.value === undefined) {
    return {
      ok: false,
      error: fileError(
        tree.root,
        'no SKILL.md here — a skill is a folder with SKILL.md (and optionally skill.toml); point at that folder',
      ),
    };
  }
  const toml = readText(tree, 'skill.toml');
  if (!toml.ok) return toml;

  if (toml.value === undefined) return loadBare(tree, md.value, options);

  const file = joinDisplay(tree.root, 'skill.toml');
  const parsed = parseTomlFile(toml.value, file);
  if (!parsed.ok) return parsed;
  const validated = validateManifest(parsed.value);
  if (!validated.ok) return { ok: false, error: { ...validated.error, file } };

  const { frontmatter, rest } = splitFrontmatter(md.value, false);
  const body = frontmatter ? rest.trimStart() : md.value;
  return {
    ok: true,
    value: {
      tree,
      manifest: validated.value,
      manifested: true,
      rawManifest: parsed.value,
      skillMd: md.value,
      ...(frontmatter ? { frontmatter } : {}),
      bodyOffset: md.value.length - body.length,
      body,
    },
  };
}

/**
 * The skill's files read with a stand-in manifest (the bare defaults), for the checks that
 * read only files (`FILE_CHECK_IDS` in shared/lint) when skill.toml does not parse or does
 * not validate: the editor keeps showing SKILL.md's and the scripts' findings meanwhile.
 * Fails only where the files themselves cannot be read (no SKILL.md, limits, encoding).
 * `manifested` is false, so nothing downstream mistakes the stand-in for a declaration.
 */
export function loadSkillFiles(tree: SkillTree, options: LoadOptions = {}): Result<Skill> {
  const limit = checkLimits(tree);
  if (limit) return { ok: false, error: limit };
  const md = readText(tree, 'SKILL.md');
  if (!md.ok) return md;
  if (md.value === undefined) return loadSkill(tree, options);
  const toml = readText(tree, 'skill.toml');
  const parsed = toml.ok && toml.value !== undefined ? parseToml(toml.value) : undefined;
  const table = parsed?.ok ? parsed.value : undefined;
  const skillTable = table?.skill;
  const declared =
    skillTable && typeof skillTable === 'object' ? (skillTable as Record<string, unknown>).name : undefined;
  const bare = loadBare(tree, md.value, {
    nameHint: typeof declared === 'string' && isKsfName(declared) ? declared : (options.nameHint ?? ''),
  });
  if (!bare.ok) return bare;
  if (!toml.ok || toml.value === undefined) return bare;
  // Read as a manifested skill reads it: the frontmatter kept as text, the parsed table scanned.
  const { frontmatter } = splitFrontmatter(md.value, false);
  const { frontmatter: _bareFrontmatter, ...rest } = bare.value;
  return {
    ok: true,
    value: { ...rest, ...(frontmatter ? { frontmatter } : {}), ...(table ? { rawManifest: table } : {}) },
  };
}

function loadBare(tree: SkillTree, text: string, options: LoadOptions): Result<Skill> {
  const { frontmatter, rest } = splitFrontmatter(text, true);
  const body = rest.trimStart();
  const declared = frontmatter?.data.name;
  const name = declared !== undefined && isKsfName(declared) ? declared : slug(options.nameHint ?? basename(tree.root));
  if (!isKsfName(name)) {
    return {
      ok: false,
      error: fileError(
        tree.root,
        `cannot derive a valid skill name (got "${name}") — add a skill.toml or a frontmatter name`,
      ),
    };
  }
  const manifest: Manifest = {
    skill: {
      name,
      version: BARE_DEFAULTS.version,
      description: frontmatter?.data.description ?? BARE_DEFAULTS.description,
      authors: [],
    },
    context: { budget: BARE_DEFAULTS.budget, standing: BARE_DEFAULTS.standing, disclosure: 'lazy' },
    triggers: { commands: [], auto: [], events: [] },
    permissions: { tools: [], network: false, write: false },
    artifacts: { produces: [], consumes: [] },
    targets: { requires: [], mode: 'skill' },
    lore: { reads: [], writes: [] },
    dependencies: {},
    mcp: { onUnsupported: 'warn', servers: [] },
  };
  return {
    ok: true,
    value: {
      tree,
      manifest,
      manifested: false,
      skillMd: text,
      ...(frontmatter ? { frontmatter } : {}),
      bodyOffset: text.length - body.length,
      body,
    },
  };
}

/** Reads a top-level text file that the loader depends on. `undefined` value: absent. */
function readText(tree: SkillTree, rel: string): Result<string | undefined> {
  const entry = entryAt(tree, rel);
  const file = joinDisplay(tree.root, rel);
  if (!entry) return { ok: true, value: undefined };
  if (entry.kind === 'symlink') {
    return {
      ok: false,
      error: fileError(
        file,
        `is a symlink (to ${entry.target}) — not followed; a skill's files must be real files inside it`,
      ),
    };
  }
  if (entry.kind === 'dir') return { ok: false, error: fileError(file, 'is a directory, expected a file') };
  const decoded = decodeUtf8(entry.bytes);
  if (!decoded.ok) return { ok: false, error: { ...decoded.error, file } };
  return { ok: true, value: decoded.value.text };
}

function checkLimits(tree: SkillTree): SkillsmithError | undefined {
  if (tree.entries.length > LIMITS.maxEntries) {
    return fileError(
      tree.root,
      `holds ${tree.entries.length} entries, over the limit of ${LIMITS.maxEntries} — refusing to review it`,
    );
  }
  let total = 0;
  for (const e of tree.entries) {
    if (e.kind !== 'file') continue;
    if (e.bytes.length > LIMITS.maxFileBytes) {
      return fileError(
        joinDisplay(tree.root, e.path),
        `file is ${formatBytes(e.bytes.length)}, over the ${formatBytes(LIMITS.maxFileBytes)} per-file limit — not read`,
      );
    }
    total += e.bytes.length;
  }
  if (total > LIMITS.maxSkillBytes) {
    return fileError(
      tree.root,
      `skill is ${formatBytes(total)} in total, over the ${formatBytes(LIMITS.maxSkillBytes)} limit — not read`,
    );
  }
  return undefined;
}

/** The reference's folder-name slug: lower-case, non-name runs to '-', leading non-letters dropped, 40 chars. */
export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 40);
}
