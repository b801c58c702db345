import { agentControlledEntries } from '../targets/protected';

/**
 * Names whose content runs later, outside any sandbox, or governs what does: git and its
 * hook managers, MCP and editor configs (tasks, launch settings, exrc), direnv, package
 * managers' configs that run code (npm's `script-shell`, yarn plugins, a pnpmfile, bun's
 * preload) and Skillsmith's own lock, policy and installed skills. Agent folders and files
 * come from the target registry. A `write = true` run never creates or changes one of
 * these at any depth: tools find nested ones too (a `src/.git` is a repository git
 * enters, a `sub/.claude` is read when an agent works in `sub/`).
 */
export const PROTECTED_ENTRIES = [
  '.git',
  '.gitmodules',
  '.gitattributes',
  '.husky',
  '.githooks',
  '.pre-commit-config.yaml',
  '.pre-commit-hooks.yaml',
  '.mcp.json',
  '.vscode',
  '.idea',
  '.zed',
  '.fleet',
  '.devcontainer',
  '.exrc',
  '.nvimrc',
  '.nvim.lua',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.yarn',
  '.pnpmfile.cjs',
  'bunfig.toml',
  '.kitbash',
] as const;

/** Name families: every lefthook config spelling, and `kitbash.toml`, `kitbash.lock` and any other `kitbash.*`. */
const PROTECTED_PATTERNS: readonly RegExp[] = [/^\.?lefthook([-.][^/]*)?\.(ya?ml|json|toml)$/i, /^kitbash\./i];

/** The protected names, for labels and messages: the fixed list, the families, every agent's entries. */
export function protectedNames(): string[] {
  return [...new Set([...PROTECTED_ENTRIES, 'lefthook*.yml', 'kitbash.*', ...agentControlledEntries()])].sort();
}

const EXACT = new Set([...PROTECTED_ENTRIES, ...agentControlledEntries()].map((n) => n.toLowerCase()));

/**
 * Whether one path segment is protected. Case-insensitive: on macOS and Windows `.Git`
 * is `.git`, and refusing a harmless `.GIT` elsewhere costs nothing.
 */
export function isProtectedName(name: string): boolean {
  return EXACT.has(name.toLowerCase()) || PROTECTED_PATTERNS.some((p) => p.test(name));
}

/** The first protected segment of a '/'-separated relative path, or undefined. */
export function protectedSegment(rel: string): string | undefined {
  return rel.split('/').find(isProtectedName);
}
