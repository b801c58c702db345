import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { agentControlledEntries } from '../../../shared/targets/protected';

/**
 * Top-level project entries whose content runs later, outside any sandbox, or governs
 * what does: git and its hook managers, MCP and editor configs (tasks, launch
 * settings), direnv, and Skillsmith's own lock, policy and installed skills. Agent
 * folders come from the target registry.
 */
export const PROTECTED_ENTRIES = [
  '.git',
  '.gitmodules',
  '.husky',
  '.githooks',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  '.pre-commit-config.yaml',
  '.mcp.json',
  '.vscode',
  '.idea',
  '.envrc',
  'kitbash.toml',
  'kitbash.lock',
  '.kitbash',
] as const;

/** Every protected top-level name: the fixed list and every agent's folders and files. */
export function protectedNames(): string[] {
  return [...new Set([...PROTECTED_ENTRIES, ...agentControlledEntries()])].sort();
}

export interface WriteLayout {
  /** Top-level entries of the project bound writable (real folders and files only). */
  readonly writable: readonly string[];
  /** Existing paths inside writable entries that are bound read-only over them. */
  readonly protectedInside: readonly string[];
  /** Every protected path, absolute (for the label and for backends that match paths). */
  readonly protectedPaths: readonly string[];
}

/**
 * How `write = true` is laid out. The project root itself stays read-only and only its
 * existing, unprotected top-level folders and files are bound writable: a protected name
 * that does not exist yet cannot be created, because its parent is read-only. Symlinks
 * are never bound (bwrap would follow them out of the project). Protected paths deeper
 * down (a git dir named by a `.git` file, a `core.hooksPath` target) are covered at their
 * nearest existing ancestor inside a writable entry.
 */
export function writeLayout(workspace: string): WriteLayout {
  const names = new Set(protectedNames());
  const deeper = gitProtectedPaths(workspace);
  const writable: string[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(workspace);
  } catch {
    entries = [];
  }
  for (const name of entries.sort()) {
    if (names.has(name)) continue;
    const abs = join(workspace, name);
    const kind = kindOf(abs);
    if (kind === 'dir' || kind === 'file') writable.push(abs);
  }
  const protectedInside = new Set<string>();
  for (const p of deeper) {
    const rel = relative(workspace, p);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue; // outside: read-only anyway
    if (names.has(rel.split(sep)[0]!)) continue; // inside a protected entry already
    let at = p;
    while (kindOf(at) === undefined && dirname(at) !== workspace) at = dirname(at);
    if (dirname(at) === workspace && kindOf(at) === undefined) continue; // a missing top-level entry cannot be created
    // A symlink is held by its folder: bwrap would bind what it points at, and it could be swapped.
    if (kindOf(at) === 'other') {
      if (dirname(at) === workspace) continue;
      at = dirname(at);
    }
    protectedInside.add(at);
  }
  return {
    writable,
    protectedInside: [...protectedInside].sort(),
    protectedPaths: [...[...names].map((n) => join(workspace, n)), ...deeper].sort(),
  };
}

/**
 * The git directory wherever it is and what git reads or runs from it: a `.git` file's
 * `gitdir:` (a worktree or submodule), its `commondir`, `core.hooksPath` and
 * `include.path` targets from their configs (a relative hooksPath is taken from the
 * project root, where git runs hooks; a relative include from the config's folder), and
 * each submodule's `.git` (listed in `.gitmodules`), which names the submodule's git dir.
 */
export function gitProtectedPaths(workspace: string): string[] {
  const out = new Set<string>();
  for (const m of (readSmall(join(workspace, '.gitmodules')) ?? '').matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm))
    out.add(join(resolve(workspace, m[1]!), '.git'));
  const dotGit = join(workspace, '.git');
  let gitDir: string | undefined;
  if (kindOf(dotGit) === 'dir') gitDir = dotGit;
  else if (kindOf(dotGit) === 'file') {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit) ?? '');
    if (m) gitDir = resolve(workspace, m[1]!);
  }
  if (gitDir === undefined) return [...out];
  const common = readSmall(join(gitDir, 'commondir'))?.trim();
  for (const d of [gitDir, ...(common ? [resolve(gitDir, common)] : [])]) {
    out.add(d);
    const config = readSmall(join(d, 'config')) ?? '';
    for (const m of config.matchAll(/^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/gim)) out.add(resolve(workspace, m[1]!));
    for (const m of config.matchAll(/^\s*path\s*=\s*"?([^"\n]+?)"?\s*$/gim)) out.add(resolve(d, m[1]!));
  }
  return [...out];
}

/**
 * The git paths of the repository the project is a folder of, when its `.git` lies above the
 * project root: the `.git` folder, or a `.git` file with the git dir and common dir it names.
 * Nothing when the project is its repository's top (its `.git` is already in view, read-only)
 * or is in no repository, and nothing when that repository's top is `/` or holds a hidden
 * home: a home kept in git (dotfiles) would show the home's history through it.
 */
export function enclosingGit(workspace: string, hiddenHomes: readonly string[]): string[] {
  if (kindOf(join(workspace, '.git')) !== undefined) return [];
  for (let top = dirname(workspace); ; top = dirname(top)) {
    const dotGit = join(top, '.git');
    const kind = kindOf(dotGit);
    if (kind === 'dir' || kind === 'file') {
      if (top === dirname(top) || hiddenHomes.some((h) => holds(top, h))) return [];
      if (kind === 'dir') return [dotGit];
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit) ?? '');
      if (!m) return [];
      const gitDir = resolve(top, m[1]!);
      const common = readSmall(join(gitDir, 'commondir'))?.trim();
      return [dotGit, gitDir, ...(common ? [resolve(gitDir, common)] : [])];
    }
    if (top === dirname(top)) return [];
  }
}

/** `outer` is `inner` or one of its parents. */
function holds(outer: string, inner: string): boolean {
  const rel = relative(outer, resolve(inner));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function kindOf(p: string): 'dir' | 'file' | 'other' | undefined {
  try {
    const st = lstatSync(p);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

function readSmall(p: string): string | undefined {
  try {
    const st = lstatSync(p);
    return st.isFile() && st.size < 1024 * 1024 ? readFileSync(p, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
