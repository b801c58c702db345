/**
 * In-memory skill trees for the pure engine tests: no disk, no child processes.
 *
 *   tree('demo', { 'SKILL.md': 'text', 'scripts/x.sh': bytes, 'link': symlink('../x') })
 *
 * Parent directories are added automatically and entries come out in walk order
 * (per-directory UTF-16 order, depth first), the order main/ reads a folder in.
 */
import { expect } from 'vitest';
import { loadSkill, type LoadOptions } from '../../shared/ksf/load';
import type { SkillsmithError } from '../../shared/result';
import type { Skill } from '../../shared/ksf/model';
import type { SkillTree, TreeEntry } from '../../shared/ksf/tree';
import { lintSkill, type LintOptions } from '../../shared/lint/checks';
import type { Check, CheckId } from '../../shared/lint/types';

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export interface SymlinkSpec {
  readonly symlink: string;
}
export interface DirSpec {
  readonly dir: true;
}
export type EntrySpec = string | Uint8Array | SymlinkSpec | DirSpec;

export function symlink(target: string): SymlinkSpec {
  return { symlink: target };
}
export const DIR: DirSpec = { dir: true };

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Walk order: siblings sorted by name, each directory followed by its contents. */
function walkOrder(paths: readonly string[]): string[] {
  const children = new Map<string, string[]>();
  for (const p of paths) {
    const i = p.lastIndexOf('/');
    const parent = i === -1 ? '' : p.slice(0, i);
    children.set(parent, [...(children.get(parent) ?? []), p]);
  }
  const out: string[] = [];
  const visit = (dir: string): void => {
    const kids = [...(children.get(dir) ?? [])].sort((a, b) =>
      cmp(a.slice(a.lastIndexOf('/') + 1), b.slice(b.lastIndexOf('/') + 1)),
    );
    for (const k of kids) {
      out.push(k);
      visit(k);
    }
  };
  visit('');
  return out;
}

/** A SkillTree from a path → content map; intermediate directories are implied. */
export function tree(root: string, files: Readonly<Record<string, EntrySpec>>): SkillTree {
  const specs = new Map<string, EntrySpec>();
  for (const [path, spec] of Object.entries(files)) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!specs.has(dir)) specs.set(dir, DIR);
    }
    specs.set(path, spec);
  }
  const entries: TreeEntry[] = walkOrder([...specs.keys()]).map((path): TreeEntry => {
    const spec = specs.get(path)!;
    if (typeof spec === 'string') return { kind: 'file', path, bytes: utf8(spec) };
    if (spec instanceof Uint8Array) return { kind: 'file', path, bytes: spec };
    if ('symlink' in spec) return { kind: 'symlink', path, target: spec.symlink };
    return { kind: 'dir', path };
  });
  return { root, entries };
}

/** A valid skill.toml; `extra` is appended verbatim (further tables), `over` replaces [skill]/[context] keys. */
export function manifestToml(
  opts: {
    name?: string;
    version?: string;
    description?: string;
    budget?: string;
    standing?: string;
    extra?: string;
  } = {},
): string {
  const lines = [
    '[skill]',
    `name = "${opts.name ?? 'demo'}"`,
    `version = "${opts.version ?? '1.0.0'}"`,
    `description = "${opts.description ?? 'A demo skill used by the unit tests.'}"`,
    '',
    '[context]',
    `budget = ${opts.budget ?? '1500'}`,
  ];
  if (opts.standing !== undefined) lines.push(`standing = ${opts.standing}`);
  return `${lines.join('\n')}\n${opts.extra ? `\n${opts.extra.trim()}\n` : ''}`;
}

export const SIMPLE_BODY = '# Demo\n\nDoes one small thing well.\n\n## Steps\n\n1. Read the diff.\n';

/** loadSkill that must succeed. */
export function loaded(t: SkillTree, options?: LoadOptions): Skill {
  const r = loadSkill(t, options);
  if (!r.ok) throw new Error(`expected the skill to load, got: ${r.error.file}: ${r.error.message}`);
  return r.value;
}

/** loadSkill that must fail. */
export function loadFailure(t: SkillTree, options?: LoadOptions): SkillsmithError {
  const r = loadSkill(t, options);
  expect(r.ok, 'expected a load error').toBe(false);
  if (r.ok) throw new Error('unreachable');
  return r.error;
}

/** A manifested skill `demo` with the given SKILL.md and further files. */
export function manifested(
  skillMd: string,
  more: Readonly<Record<string, EntrySpec>> = {},
  toml: string = manifestToml(),
): SkillTree {
  return tree('skills/demo', { 'SKILL.md': skillMd, 'skill.toml': toml, ...more });
}

/** Load and lint in one go. */
export function lintTree(t: SkillTree, options?: LintOptions, load?: LoadOptions): Check[] {
  return lintSkill(loaded(t, load), options);
}

export function check(checks: readonly Check[], id: CheckId): Check | undefined {
  return checks.find((c) => c.id === id);
}

/** The check that must be present. */
export function mustCheck(checks: readonly Check[], id: CheckId): Check {
  const c = check(checks, id);
  if (!c) throw new Error(`no "${id}" check among: ${checks.map((x) => x.id).join(', ')}`);
  return c;
}

export function statuses(checks: readonly Check[]): Record<string, string> {
  return Object.fromEntries(checks.map((c) => [c.id, c.status]));
}

/** Join code points into a string, for building invisible-character inputs readably. */
export function cp(...points: number[]): string {
  return String.fromCodePoint(...points);
}
