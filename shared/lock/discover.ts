import type { ProjectFiles } from '../targets/types';

/** What discovery reads of a source's files ('/'-separated paths relative to the source folder). */
export type SourceView = Pick<ProjectFiles, 'exists' | 'read' | 'list'>;

/** Where discovery found a skill folder, and which layout named it. */
export interface FoundSkill {
  /** Folder path relative to the source folder ('' for the folder itself). */
  readonly rel: string;
  readonly via: 'root' | 'marketplace' | 'skills' | 'plugins' | 'top-level';
}

const join = (...parts: string[]): string =>
  parts
    .join('/')
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');

/** A marketplace-relative path that stays inside the source, normalised; undefined otherwise. */
function inside(path: string): string | undefined {
  const p = join(path.replace(/\\/g, '/'));
  return path.startsWith('/') || p.split('/').includes('..') ? undefined : p;
}

function isSkillFolder(v: SourceView, rel: string): boolean {
  return v.exists(join(rel, 'SKILL.md')) || v.exists(join(rel, 'skill.toml'));
}

function childSkills(v: SourceView, dir: string): string[] {
  return v
    .list(dir)
    .filter((e) => e.kind === 'dir' && !e.name.startsWith('.'))
    .map((e) => join(dir, e.name))
    .filter((rel) => isSkillFolder(v, rel))
    .sort();
}

/** Plugin skill folders a Claude Code `.claude-plugin/marketplace.json` names (local plugin sources only). */
function marketplaceSkills(v: SourceView): string[] {
  const text = v.read('.claude-plugin/marketplace.json');
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return []; // a broken catalog: the folder layouts below still apply
  }
  const plugins = typeof json === 'object' && json !== null ? (json as { plugins?: unknown }).plugins : undefined;
  if (!Array.isArray(plugins)) return [];
  const out: string[] = [];
  for (const p of plugins as unknown[]) {
    if (typeof p !== 'object' || p === null) continue;
    const { source, skills } = p as { source?: unknown; skills?: unknown };
    if (typeof source !== 'string') continue; // a remote plugin source is another repository
    const base = inside(source);
    if (base === undefined) continue;
    if (Array.isArray(skills)) {
      for (const s of skills) {
        const rel = typeof s === 'string' ? inside(join(base, s)) : undefined;
        if (rel !== undefined && isSkillFolder(v, rel)) out.push(rel);
      }
    } else if (isSkillFolder(v, base) && base !== '') out.push(base);
    else out.push(...childSkills(v, join(base, 'skills')));
  }
  return out;
}

/**
 * The skill folders a source holds. A folder with its own SKILL.md (or skill.toml) is one
 * skill; otherwise the layouts people publish are read, first match of a folder winning:
 * `.claude-plugin/marketplace.json`, `skills/<n>/`, `plugins/<p>/skills/<n>/`, `<n>/`.
 */
export function discoverSkills(v: SourceView): FoundSkill[] {
  if (isSkillFolder(v, '')) return [{ rel: '', via: 'root' }];
  const seen = new Set<string>();
  const out: FoundSkill[] = [];
  const add = (rels: readonly string[], via: FoundSkill['via']) => {
    for (const rel of rels) {
      if (seen.has(rel)) continue;
      seen.add(rel);
      out.push({ rel, via });
    }
  };
  add(marketplaceSkills(v), 'marketplace');
  add(childSkills(v, 'skills'), 'skills');
  for (const p of v
    .list('plugins')
    .filter((e) => e.kind === 'dir' && !e.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : 1))) {
    add(childSkills(v, join('plugins', p.name, 'skills')), 'plugins');
  }
  add(childSkills(v, ''), 'top-level');
  return out;
}
