/**
 * A skill folder as data. main/ reads the disk into this shape once; everything that
 * decides (load, lint, hash) works on it, so the renderer can run the same checks on
 * unsaved buffers.
 */
export type TreeEntry =
  | { kind: 'file'; path: string; bytes: Uint8Array; executable?: boolean }
  | { kind: 'dir'; path: string }
  | { kind: 'symlink'; path: string; target: string };

export interface SkillTree {
  /** How the folder is shown to the user (a path relative to the cwd, or a label). */
  readonly root: string;
  /** '/'-separated relative paths, in walk order (per-directory UTF-16 sort, depth first). */
  readonly entries: readonly TreeEntry[];
}

/** Refusal limits: a skill is text a person must be able to review. */
export const LIMITS = {
  maxFileBytes: 8 * 1024 * 1024,
  maxSkillBytes: 64 * 1024 * 1024,
  maxEntries: 10_000,
} as const;

export function entryAt(tree: SkillTree, path: string): TreeEntry | undefined {
  return tree.entries.find((e) => e.path === path);
}

export function joinDisplay(root: string, rel: string): string {
  if (root === '' || root === '.') return rel;
  return root.endsWith('/') ? root + rel : `${root}/${rel}`;
}

export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  return i === -1 ? trimmed : trimmed.slice(i + 1);
}
