import type { Skill } from '../ksf/model';
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
 * (by the shared control-byte rule) are skipped; symlinks are never followed.
 */
export function scanSet(skill: Skill): ScanSet {
  const documents: ScanDocument[] = [];
  const hidden: StructuralFinding[] = [];
  for (const entry of skill.tree.entries) {
    if (entry.kind === 'dir') continue;
    if (entry.kind === 'symlink') {
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
