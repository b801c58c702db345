import { lstatSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

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
