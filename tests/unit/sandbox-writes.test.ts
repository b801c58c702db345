/** The pure rules of a write-granted run's staged changes (D183): which are applied, and why the rest are not. */
import { describe, expect, it } from 'vitest';
import { isProtectedName, protectedSegment } from '../../shared/sandbox/protected';
import { decideWrites, diffSnapshots, type EntryStat, type StagedChange } from '../../shared/sandbox/writes';

const file = (over: Partial<EntryStat> = {}): EntryStat => ({
  kind: 'file',
  size: 1,
  mtimeMs: 1,
  ctimeMs: 1,
  ino: 1,
  mode: 0o644,
  ...over,
});
const dir: EntryStat = { kind: 'dir', size: 0, mtimeMs: 1, ctimeMs: 1, ino: 2, mode: 0o755 };
const link = (target: string): EntryStat => ({ ...file({ kind: 'symlink' }), target });
const rules = { root: '/home/dev/proj', protectedPaths: ['gitdata', 'tools/hooks'] };
const added = (path: string, after: EntryStat = file()): StagedChange => ({ path, change: 'added', after });
const reasons = (cs: StagedChange[]) =>
  Object.fromEntries(decideWrites(cs, rules).refused.map((r) => [r.path, r.reason]));

describe('protected names', () => {
  it('match at any depth, case-insensitively, with the lefthook and kitbash.* families', () => {
    for (const p of [
      'src/.git/config',
      '.git/hooks/x',
      'src/.claude/settings.json',
      'src/.mcp.json',
      'sub/AGENTS.md',
      'a/b/CLAUDE.md',
      '.npmrc',
      'pkg/.yarnrc.yml',
      '.vscode/tasks.json',
      '.envrc',
      'kitbash.toml',
      'x/kitbash.anything',
      'lefthook-local.yml',
      '.gitattributes',
      'SRC/.GIT/config',
    ])
      expect([p, protectedSegment(p)]).toEqual([p, expect.any(String)]);
    for (const p of ['REVIEW.md', 'docs/new/CHANGELOG.md', 'src/git/config', 'gitignore', 'package.json'])
      expect([p, protectedSegment(p)]).toEqual([p, undefined]);
    expect(isProtectedName('.Claude')).toBe(true);
  });
});

describe('diffSnapshots', () => {
  it('finds added, changed (by inode, size, times, mode or link target) and deleted entries, parents first', () => {
    const before = new Map<string, EntryStat>([
      ['a', file()],
      ['b', file()],
      ['c', file()],
      ['d', dir],
      ['l', link('a')],
      ['same', file()],
    ]);
    const after = new Map<string, EntryStat>([
      ['a', file({ ctimeMs: 2 })], // rewritten with its mtime restored: the ctime still moved
      ['c', file({ mode: 0o755 })],
      ['d', { ...dir, mtimeMs: 9 }], // a folder's times move with its children: not a change
      ['d/new', file()],
      ['l', link('c')],
      ['same', file()],
    ]);
    expect(diffSnapshots(before, after).map((c) => `${c.change} ${c.path}`)).toEqual([
      'changed a',
      'deleted b',
      'changed c',
      'added d/new',
      'changed l',
    ]);
  });
});

describe('decideWrites', () => {
  it('applies ordinary new files and folders anywhere, the root included', () => {
    const r = decideWrites([added('REVIEW.md'), added('notes', dir), added('notes/a.md'), added('src/x.ts')], rules);
    expect(r.refused).toEqual([]);
    expect(r.apply.map((c) => c.path)).toEqual(['REVIEW.md', 'notes', 'notes/a.md', 'src/x.ts']);
  });

  it('refuses every protected name at any depth and the git paths a .git file or hooksPath names', () => {
    const paths = [
      'src/.git/config',
      '.git/hooks/x',
      'src/.claude/settings.json',
      'src/.mcp.json',
      'sub/AGENTS.md',
      '.npmrc',
      '.vscode/tasks.json',
      '.envrc',
      'kitbash.toml',
      'gitdata/config',
      'tools/hooks/pre-commit',
    ];
    const r = reasons(paths.map((p) => added(p)));
    expect(Object.keys(r).sort()).toEqual([...paths].sort());
    expect(r['src/.git/config']).toBe('protected: .git holds code or settings another program runs or reads later');
    expect(r['tools/hooks/pre-commit']).toBe('protected: tools/hooks is part of the git directory or its hooks');
  });

  it('applies a symlink only when it stays inside the project and out of protected names', () => {
    const r = reasons([
      added('in', link('src/a.ts')),
      added('src/up', link('../README.md')),
      added('abs-in', link('/home/dev/proj/src')),
      added('out', link('/etc/passwd')),
      added('climb', link('../../x')),
      added('abs-sibling', link('/home/dev/project-other/x')),
      added('hook', link('.git/hooks/pre-commit')),
    ]);
    expect(r).toEqual({
      out: 'a symlink pointing outside the project (/etc/passwd)',
      climb: 'a symlink pointing outside the project (../../x)',
      'abs-sibling': 'a symlink pointing outside the project (/home/dev/project-other/x)',
      hook: 'a symlink into .git, which is protected (.git/hooks/pre-commit)',
    });
  });

  it('deletes only ordinary files and folders; refuses special files and a change of kind', () => {
    const r = reasons([
      { path: 'gone.txt', change: 'deleted', before: file() },
      { path: 'gone-dir', change: 'deleted', before: dir },
      { path: 'gone-link', change: 'deleted', before: link('a') },
      added('fifo', file({ kind: 'other' })),
      { path: 'was-file', change: 'changed', before: file(), after: dir },
    ]);
    expect(r).toEqual({
      'gone-link': 'only ordinary files and folders are deleted, never a symlink or special file',
      fifo: 'not an ordinary file, folder or symlink (a FIFO, socket or device)',
      'was-file': 'a file the run turned into a folder',
    });
  });
});
