import type { Skill } from '../ksf/model';
import { entryAt, type SkillTree } from '../ksf/tree';
import { decodeLenient, isBinary } from '../ksf/text';
import { distinctCodePoints, findInvisible } from './safety/visible-text';
import { skillPowers } from '../ksf/powers';

/** One text the safety scanners read, named by its path inside the skill. */
export interface ScanDocument {
  readonly path: string;
  readonly text: string;
}

/** Something about a file itself (not its text) that a reviewer cannot see. */
export interface StructuralFinding {
  readonly path: string;
  readonly message: string;
}

export interface ScanSet {
  readonly documents: readonly ScanDocument[];
  readonly hidden: readonly StructuralFinding[];
}

/**
 * Every file of the skill, exactly as install will see it: SKILL.md with its
 * frontmatter, skill.toml, prompts, scripts, dotfiles and nested files. Binary files
 * (by the shared control-byte rule) are skipped; symlinks are never followed. A symlink to
 * another text file of the skill hides nothing — that file is read here in its own name — so
 * it is not reported (SPEC.md D247); any other symlink is.
 */
export function scanSet(skill: Skill): ScanSet {
  const documents: ScanDocument[] = [];
  const hidden: StructuralFinding[] = [];
  for (const entry of skill.tree.entries) {
    if (entry.kind === 'dir') continue;
    if (entry.kind === 'symlink') {
      if (reviewedTarget(skill.tree, entry.path, entry.target)) continue;
      hidden.push({
        path: entry.path,
        message: `symlink (→ ${entry.target}) — not followed; it points outside the reviewed files`,
      });
      continue;
    }
    let text: string;
    if (entry.path === 'SKILL.md') text = skill.skillMd;
    else if (isBinary(entry.bytes)) continue;
    else text = decodeLenient(entry.bytes).text;
    if (text.includes('\0')) {
      hidden.push({ path: entry.path, message: 'NUL bytes inside a text file — characters a reviewer cannot see' });
      text = text.replaceAll('\0', '');
    }
    documents.push({ path: entry.path, text });
  }
  const textOf = (path: string): string => documents.find((d) => d.path === path)?.text ?? '';
  if (skill.rawManifest) hidden.push(...escapedInvisible('skill.toml', textOf('skill.toml'), skill.rawManifest, ''));
  if (skill.frontmatter) {
    hidden.push(...escapedInvisible('SKILL.md', textOf('SKILL.md'), skill.frontmatter.data, 'frontmatter'));
    // Hooks and tool lists are maps and lists, which the scalar reading above leaves out.
    const p = skillPowers(textOf('SKILL.md'));
    const nested = {
      hooks: p.hooks.map((h) => h.command),
      'allowed-tools': p.allowedTools,
      'disallowed-tools': p.disallowedTools,
    };
    hidden.push(...escapedInvisible('SKILL.md', textOf('SKILL.md'), nested, 'frontmatter'));
  }
  return { documents, hidden };
}

/**
 * Whether the symlink at `path` names a text file of the same skill, which is read in its own
 * name. Resolved lexically, which is what the kernel does only where every directory passed
 * through is a real one: so each directory the target enters must be a directory of the tree
 * (never a symlink, whose `..` would lead elsewhere), an absolute target or one that leaves the
 * folder is not one, and the end must be a file that is not binary (so it is reviewed).
 */
function reviewedTarget(tree: SkillTree, path: string, target: string): boolean {
  if (target.startsWith('/') || target.includes('\\')) return false;
  // The link's own folders are real directories: the tree walk never follows a symlink.
  const parts = path.split('/').slice(0, -1);
  const segments = target.split('/');
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k]!;
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return false;
      parts.pop();
      continue;
    }
    parts.push(seg);
    if (k < segments.length - 1 && entryAt(tree, parts.join('/'))?.kind !== 'dir') return false;
  }
  const end = entryAt(tree, parts.join('/'));
  return end?.kind === 'file' && !isBinary(end.bytes);
}

/**
 * TOML and YAML write any character as an escape (`"\u202e"`), so the file can look clean
 * while a parsed value — a description compiled into every agent's files — holds invisible
 * characters. The parsed strings are read too; one the file shows raw is already reported
 * with its place, so only escaped ones are added here.
 */
function escapedInvisible(path: string, fileText: string, value: unknown, key: string): StructuralFinding[] {
  if (typeof value === 'string') {
    const hits = findInvisible(value).filter((h) => !fileText.includes(h.match));
    return hits.length
      ? [{ path, message: `${key}: invisible characters written as escapes (${distinctCodePoints(hits).join(', ')})` }]
      : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => escapedInvisible(path, fileText, v, `${key}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => escapedInvisible(path, fileText, v, key ? `${key}.${k}` : k));
  return [];
}
