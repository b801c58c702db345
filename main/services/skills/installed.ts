import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Result } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { entryAt, type SkillTree } from '../../../shared/ksf/tree';
import type { FailedSkill } from '../../../shared/compile/plan';
import { oneLine } from '../compile/load';
import { fromExact, toExact } from './exact-json';
import { cacheDir, openIndexFile, type IndexFile } from './index-file';
import { mapLimit, READ_LANES } from './limit';
import { installedSkillsAsync } from './locate';
import { readSkillTreeAsync } from './reader';
import { folderStamp, nowNs, racyWindow, settled } from '../fs/stamp';

/** One entry of .kitbash/skills/ as compile loads it: the skill, or why it is not one. */
export type Outcome = { readonly skill: Skill } | { readonly failure: string };

export interface InstalledFolder {
  /** The folder's name under .kitbash/skills/. */
  readonly name: string;
  /** `broken`: a symlink or a folder without SKILL.md (never read). */
  readonly kind: 'folder' | 'broken';
  readonly outcome: Outcome;
  /** The folder's stamp when it was read ('' for a broken entry or one that could not be stamped). */
  readonly stamp: string;
  /** Whether that stamp had settled, so that an unchanged stamp later means unchanged files. */
  readonly settled: boolean;
}

/**
 * Loaded skills this process has read, by folder, with the stamp they were read at: the
 * app reviews, approves and recompiles the same project many times in a session, and each
 * of those needs every installed skill. An entry is reused only while its folder's stamp
 * is unchanged and had settled when it was read (see stamp.ts). Bounded by bytes held.
 */
const memo = new Map<string, { digest: string; outcome: Outcome; bytes: number }>();
const MEMO_BYTES = 96 * 1024 * 1024;
let memoBytes = 0;

function remember(abs: string, digest: string, outcome: Outcome): void {
  const bytes =
    'skill' in outcome
      ? outcome.skill.tree.entries.reduce((n, e) => n + (e.kind === 'file' ? e.bytes.length : 0), 0)
      : 0;
  forget(abs);
  memo.set(abs, { digest, outcome, bytes });
  memoBytes += bytes;
  for (const [k, v] of memo) {
    if (memoBytes <= MEMO_BYTES) break;
    memo.delete(k);
    memoBytes -= v.bytes;
  }
}

function forget(abs: string): void {
  const old = memo.get(abs);
  if (!old) return;
  memo.delete(abs);
  memoBytes -= old.bytes;
}

/**
 * Every entry under .kitbash/skills/ as compile loads it (loadInstalled: the skills that
 * load, and the folders that do not, with the same messages, in folder order), read
 * through promises and from this process's memo where a folder is unchanged.
 */
export async function readInstalled(root: string): Promise<InstalledFolder[]> {
  const takenAt = nowNs();
  const window = await racyWindow(root);
  const locations = await installedSkillsAsync(root);
  const parses = await openIndexFile(root, join(cacheDir(), 'skill-parse'));
  let dirty = false;
  const folders = await mapLimit(locations, READ_LANES, async (loc): Promise<InstalledFolder> => {
    if (loc.kind === 'broken')
      return { name: loc.nameHint, kind: 'broken', outcome: { failure: loc.problem }, stamp: '', settled: false };
    const stamp = await folderStamp(loc.abs);
    const calm = stamp !== undefined && settled(stamp.newest, takenAt, window);
    const folder = (outcome: Outcome): InstalledFolder => ({
      name: loc.nameHint,
      kind: 'folder',
      outcome,
      stamp: stamp?.digest ?? '',
      settled: calm,
    });
    const hit = memo.get(loc.abs);
    if (stamp && hit?.digest === stamp.digest) return folder(hit.outcome);
    const tree = await readSkillTreeAsync(loc.abs, loc.display);
    let outcome: Outcome;
    if (!tree.ok) outcome = { failure: oneLine(tree.error) };
    else {
      const loaded = loadParsed(tree.value, loc.nameHint, parses, () => (dirty = true));
      outcome = loaded.ok ? { skill: loaded.value } : { failure: oneLine(loaded.error) };
    }
    if (calm) remember(loc.abs, stamp.digest, outcome);
    else forget(loc.abs);
    return folder(outcome);
  });
  const present = new Set(locations.map((l) => l.nameHint));
  for (const name of Object.keys(parses.data.skills))
    if (!present.has(name)) {
      delete parses.data.skills[name];
      dirty = true;
    }
  if (dirty) await parses.save();
  return folders;
}

/** Bumped whenever loadSkill's output for the same bytes could change shape. */
const PARSE_FORMAT = 1;

/**
 * loadSkill, with what it parses (manifest, frontmatter, raw TOML) remembered per folder by
 * a hash of every byte it reads — SKILL.md, skill.toml and the display root — so the YAML
 * and TOML of an unchanged skill are not parsed again by the next command. The tree comes
 * from readSkillTree, which refuses anything over the loader's limits, so those checks
 * hold for every tree given here.
 */
function loadParsed(tree: SkillTree, folder: string, cache: IndexFile, changed: () => void): Result<Skill> {
  const md = entryAt(tree, 'SKILL.md');
  const toml = entryAt(tree, 'skill.toml');
  if (md?.kind !== 'file' || (toml !== undefined && toml.kind !== 'file')) return loadSkill(tree);
  const h = createHash('sha256').update(`${PARSE_FORMAT}\0${tree.root.length}:${tree.root}\0${md.bytes.length}:`);
  h.update(md.bytes).update(`\0${toml ? toml.bytes.length : -1}:`);
  if (toml) h.update(toml.bytes);
  const key = h.digest('hex');
  const hit = cache.data.skills[folder];
  if (hit?.stamp === key) {
    const skill = revive(tree, md.bytes, hit.summary);
    if (skill) return { ok: true, value: skill };
  }
  const loaded = loadSkill(tree);
  if (loaded.ok) {
    const { manifest, manifested, rawManifest, frontmatter, bodyOffset } = loaded.value;
    const stored = toExact({
      manifest,
      manifested,
      ...(rawManifest !== undefined ? { rawManifest } : {}),
      ...(frontmatter !== undefined ? { frontmatter } : {}),
      bodyOffset,
    });
    if (stored !== undefined) {
      cache.data.skills[folder] = { stamp: key, summary: stored };
      changed();
    }
  }
  return loaded;
}

/** The Skill loadSkill made from these bytes, rebuilt from what it parsed; undefined when the entry is not usable. */
function revive(tree: SkillTree, mdBytes: Uint8Array, stored: unknown): Skill | undefined {
  let p: Record<string, unknown>;
  try {
    p = fromExact(stored) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const text = decodeUtf8(mdBytes);
  if (
    !text.ok ||
    typeof p.bodyOffset !== 'number' ||
    typeof p.manifested !== 'boolean' ||
    typeof p.manifest !== 'object'
  )
    return undefined;
  const skillMd = text.value.text;
  return {
    tree,
    manifest: p.manifest as Skill['manifest'],
    manifested: p.manifested,
    ...(p.rawManifest !== undefined ? { rawManifest: p.rawManifest as Skill['rawManifest'] } : {}),
    skillMd,
    ...(p.frontmatter !== undefined ? { frontmatter: p.frontmatter as Skill['frontmatter'] } : {}),
    bodyOffset: p.bodyOffset,
    body: skillMd.slice(p.bodyOffset),
  } as Skill;
}

/** The planner's input from folders in folder order: the skills, and the failures named by folder. */
export function loadedOf(folders: readonly InstalledFolder[]): { skills: Skill[]; failures: FailedSkill[] } {
  const skills: Skill[] = [];
  const failures: FailedSkill[] = [];
  for (const f of folders) {
    if ('skill' in f.outcome) skills.push(f.outcome.skill);
    else failures.push({ name: f.name, message: f.outcome.failure });
  }
  return { skills, failures };
}
