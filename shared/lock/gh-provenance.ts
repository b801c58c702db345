import { isMap, isScalar, parseDocument } from 'yaml';
import type { Skill } from '../ksf/model';

/**
 * The provenance `gh skill install` writes into an installed SKILL.md, under the frontmatter's
 * `metadata` map: `github-repo` (the repository URL), `github-ref` (`refs/heads/…`,
 * `refs/tags/…`), `github-path` (the folder in it), `github-tree-sha` (the git tree of that
 * folder) and `github-pinned` (the ref it was pinned to, when it was).
 */
export interface GhProvenance {
  readonly repo?: string;
  readonly ref?: string;
  readonly path?: string;
  readonly treeSha?: string;
  readonly pinned?: string;
}

const KEYS = {
  'github-repo': 'repo',
  'github-ref': 'ref',
  'github-path': 'path',
  'github-tree-sha': 'treeSha',
  'github-pinned': 'pinned',
} as const satisfies Record<string, keyof GhProvenance>;

/** The `metadata.github-*` keys of a skill's frontmatter; undefined when it has none. */
export function ghProvenance(skill: Pick<Skill, 'frontmatter'>): GhProvenance | undefined {
  const raw = skill.frontmatter?.raw;
  if (!raw || !raw.includes('github-')) return undefined;
  const inner = raw.replace(/^---\r?\n/, '').replace(/\r?\n---\r?\n?$/, '');
  const doc = parseDocument(inner, { prettyErrors: false });
  if (doc.errors.length || !isMap(doc.contents)) return undefined;
  const meta = doc.contents.get('metadata', true);
  if (!isMap(meta)) return undefined;
  const out: Record<string, string> = {};
  for (const pair of meta.items) {
    if (!isScalar(pair.key) || !isScalar(pair.value) || pair.value.value === null) continue;
    const field = KEYS[String(pair.key.value) as keyof typeof KEYS];
    if (field) out[field] = String(pair.value.value);
  }
  return Object.keys(out).length ? (out as GhProvenance) : undefined;
}

/** The lock entry's `github` field for a skill: present only when its frontmatter carries gh's keys. */
export function ghLockField(skill: Pick<Skill, 'frontmatter'>): { github?: GhProvenance } {
  const github = ghProvenance(skill);
  return github ? { github } : {};
}
