import { splitFrontmatter } from '../ksf/frontmatter';

/** One hand-written copy of a skill in an agent's folder. */
export interface HandCopy {
  /** Project-relative path: the skill folder, or the rule file. */
  readonly path: string;
  /** The location folder it sits in (e.g. `.claude/skills`). */
  readonly dir: string;
  readonly kind: 'folder' | 'rule';
  /** Tree hash of what would be adopted from it. */
  readonly integrity: string;
}

export type AdoptVerdict =
  | {
      readonly status: 'adoptable';
      readonly from: HandCopy;
      readonly retire: readonly string[];
      readonly keep: readonly string[];
    }
  | { readonly status: 'conflict' | 'managed'; readonly reason: string };

/**
 * A rule file that is a skill: Cursor's agent-requested rule (a description, not always
 * applied). Always-on rules and rules without a description are instructions, which
 * `import` merges instead.
 */
export function ruleIsSkill(text: string): boolean {
  const fm = splitFrontmatter(text.startsWith('\uFEFF') ? text.slice(1) : text, true).frontmatter;
  if (!fm || !(fm.data.description ?? '').trim()) return false;
  return !/^\s*alwaysApply:\s*true\s*$/im.test(fm.raw);
}

/**
 * What to do with the copies of one skill name. Nothing is adopted when the copies differ
 * (which one is the skill is the user's call) or when `.kitbash/skills/<name>` already
 * exists. Copies in a folder an active target writes are retired (compile regenerates
 * them); the others are kept as they are.
 */
export function adoptVerdict(
  name: string,
  copies: readonly HandCopy[],
  installed: boolean,
  activeDirs: ReadonlySet<string>,
): AdoptVerdict {
  const paths = copies.map((c) => c.path).join(', ');
  if (installed)
    return {
      status: 'managed',
      reason: `.kitbash/skills/${name} already exists — ${paths} is a hand-written copy in compile's way: remove or rename it, or remove the installed skill first`,
    };
  if (new Set(copies.map((c) => c.integrity)).size > 1)
    return { status: 'conflict', reason: `${paths} differ — keep one (or rename one), then import again` };
  const from = copies.find((c) => c.kind === 'folder') ?? copies[0]!;
  return {
    status: 'adoptable',
    from,
    retire: copies.filter((c) => activeDirs.has(c.dir)).map((c) => c.path),
    keep: copies.filter((c) => !activeDirs.has(c.dir)).map((c) => c.path),
  };
}
