/**
 * The repository layouts people publish skills in, each built here as a temp folder or a
 * local git repository (never third-party skills): every one is listed whole by
 * `install <source> --list`, and `--all` / `--skill` install a batch with one review,
 * one approval, one commit and one compile.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSource } from '../../shared/lock/discover';
import { pickSkills } from '../../shared/lock/pick';
import { diskProject } from '../../main/services/compile/project-files';
import { listSourceSkills } from '../../main/services/install/listing';
import { cleanupTemps, cli, temp, write, type Files } from './helpers';

// The marketplace below names a plugin on GitHub: listing it clones it (SPEC D310), here from a
// loopback port nothing listens on, so the test never leaves the machine.
const githubBase = process.env.SKILLSMITH_GITHUB_BASE;
process.env.SKILLSMITH_GITHUB_BASE = 'http://127.0.0.1:9';
afterAll(() => {
  if (githubBase === undefined) delete process.env.SKILLSMITH_GITHUB_BASE;
  else process.env.SKILLSMITH_GITHUB_BASE = githubBase;
  cleanupTemps();
});

const bare = (name: string, description = `Use when working on ${name}.`): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nDo the ${name} thing.\n`;

const skills = (...rels: string[]): Files =>
  Object.fromEntries(rels.map((r) => [`${r}/SKILL.md`, bare(r.split('/').pop()!)]));

const LAYOUTS: Record<string, { files: Files; expect: string[] }> = {
  'root skills/': { files: skills('skills/a', 'skills/b'), expect: ['skills/a', 'skills/b'] },
  'skills/.curated, .system, .experimental': {
    files: skills('skills/.curated/pdf', 'skills/.system/installer', 'skills/.experimental/draft'),
    expect: ['skills/.curated/pdf', 'skills/.experimental/draft', 'skills/.system/installer'],
  },
  'skills/(category)/*': {
    files: skills('skills/(writing)/essay', 'skills/(code)/review', 'skills/(code)/refactor'),
    expect: ['skills/(code)/refactor', 'skills/(code)/review', 'skills/(writing)/essay'],
  },
  'a Claude Code marketplace of nested plugins': {
    files: {
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'shop',
        plugins: [
          { name: 'docs', source: './plugins/docs' },
          { name: 'picked', source: './', skills: ['./extra/one', './extra/two'] },
          { name: 'remote', source: { source: 'github', repo: 'someone/else' } },
        ],
      }),
      'plugins/docs/.claude-plugin/plugin.json': JSON.stringify({ name: 'docs-plugin', skills: './more' }),
      ...skills('plugins/docs/skills/pdf', 'plugins/docs/more/xlsx', 'extra/one', 'extra/two'),
    },
    expect: ['plugins/docs/skills/pdf', 'plugins/docs/more/xlsx', 'extra/one', 'extra/two'],
  },
  'a Codex marketplace of nested plugins': {
    files: {
      '.agents/plugins/marketplace.json': JSON.stringify({
        name: 'codex-shop',
        plugins: [{ name: 'tools', source: { source: 'local', path: './plugins/tools' }, policy: {} }],
      }),
      'plugins/tools/.codex-plugin/plugin.json': JSON.stringify({ name: 'tools', skills: './skills/' }),
      ...skills('plugins/tools/skills/lint', 'plugins/tools/skills/fmt'),
    },
    expect: ['plugins/tools/skills/fmt', 'plugins/tools/skills/lint'],
  },
  'a collection SKILL.md at the root': {
    files: { 'SKILL.md': bare('everything'), ...skills('one', 'two', 'nested/three') },
    expect: ['nested/three', 'one', 'two'],
  },
};

describe('every layout is discovered whole', () => {
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    it(name, async () => {
      const dir = temp();
      write(dir, layout.files);
      expect(discoverSource(diskProject(dir)).skills.map((s) => s.rel)).toEqual(layout.expect);
      const listed = await cli(temp(), 'install', `file:${dir}`, '--list');
      expect(listed.code).toBe(0);
      for (const rel of layout.expect) expect(listed.stdout).toContain(`${rel}/`);
      // One line per skill; a marketplace's plugin lines (`plugin …`, `  (cannot be listed: …)`) are not skills.
      const skillLines = listed.stdout
        .split('\n')
        .filter((l) => l.startsWith('  ') && !l.startsWith('  collection') && !l.startsWith('  ('));
      expect(skillLines).toHaveLength(layout.expect.length);
    });
  }

  it('manifests name the plugin each skill belongs to; a remote plugin is left to its own repository', () => {
    const dir = temp();
    write(dir, LAYOUTS['a Claude Code marketplace of nested plugins']!.files);
    expect(discoverSource(diskProject(dir)).skills).toEqual([
      { rel: 'plugins/docs/skills/pdf', via: 'manifest', group: 'docs-plugin' },
      { rel: 'plugins/docs/more/xlsx', via: 'manifest', group: 'docs-plugin' },
      { rel: 'extra/one', via: 'manifest', group: 'picked' },
      { rel: 'extra/two', via: 'manifest', group: 'picked' },
    ]);
    const codex = temp();
    write(codex, LAYOUTS['a Codex marketplace of nested plugins']!.files);
    expect(new Set(discoverSource(diskProject(codex)).skills.map((s) => s.group))).toEqual(new Set(['tools']));
  });

  it('a walked skill is grouped by its folder: a dot-folder, a (group) folder, or a plugin folder', () => {
    const dir = temp();
    write(dir, skills('skills/.curated/pdf', 'skills/(code)/review', 'plugins/p/skills/x', 'skills/plain'));
    expect(discoverSource(diskProject(dir)).skills.map((s) => [s.rel, s.group])).toEqual([
      ['plugins/p/skills/x', 'p'],
      ['skills/(code)/review', '(code)'],
      ['skills/.curated/pdf', '.curated'],
      ['skills/plain', undefined],
    ]);
  });

  it('a SKILL.md over further skills is a collection: its members are offered, it is never one skill', async () => {
    const dir = temp();
    write(dir, { ...LAYOUTS['a collection SKILL.md at the root']!.files, 'nested/three/docs/SKILL.md': bare('deep') });
    const d = discoverSource(diskProject(dir));
    expect(d.collections).toEqual([
      { rel: '', members: ['nested/three/docs', 'one', 'two'] },
      { rel: 'nested/three', members: ['nested/three/docs'] },
    ]);
    expect(d.skills.map((s) => [s.rel, s.collection])).toEqual([
      ['nested/three/docs', 'nested/three'],
      ['one', ''],
      ['two', ''],
    ]);
    const listing = await listSourceSkills(`file:${dir}`, temp());
    expect(listing.single).toBe(false);
    expect(listing.collections.map((c) => [c.name, c.members])).toEqual([
      ['everything', ['deep', 'one', 'two']],
      ['three', ['deep']],
    ]);
    const picked = pickSkills(listing.skills, listing.collections, ['everything']);
    expect(picked.ok && picked.value.picks.map((s) => s.name)).toEqual(['deep', 'one', 'two']);
    const listed = await cli(temp(), 'install', `file:${dir}`, '--list');
    expect(listed.stdout).toContain(
      '  collection everything (.): a SKILL.md over 3 member skills — --skill everything picks them all\n',
    );
  });

  it('leaves out .git, node_modules and what is under vendored folders, and never follows a symlink', () => {
    const outside = temp();
    write(outside, skills('secret'));
    const dir = temp();
    write(dir, {
      ...skills('skills/real', 'node_modules/pkg/skills/npm', '.git/hooks/x', 'vendor/lib/inner', 'build'),
      'vendor/lib/README.md': 'vendored\n',
      linked: { symlink: outside },
      'skills/linked': { symlink: join(outside, 'secret') },
      '.claude-plugin/marketplace.json': JSON.stringify({ plugins: [{ name: 'out', source: './linked' }] }),
    });
    expect(discoverSource(diskProject(dir)).skills.map((s) => s.rel)).toEqual(['build', 'skills/real']);
  });

  it('the walk is bounded in depth and in folders, and says where it stopped', () => {
    const dir = temp();
    write(dir, skills('a/b/c/d/e/deep', 'x/shallow', 'y/z/also'));
    expect(discoverSource(diskProject(dir), { depth: 3, folders: 100 })).toEqual({
      skills: [
        { rel: 'x/shallow', via: 'walk', group: 'x' },
        { rel: 'y/z/also', via: 'walk', group: 'z' },
      ],
      collections: [],
      notes: ['1 folder deeper than 3 levels was not looked into'],
    });
    expect(discoverSource(diskProject(dir), { depth: 8, folders: 4 }).notes).toEqual([
      'stopped looking after 4 folders — name a folder of the source (owner/repo/path) to list past it',
    ]);
  });
});

describe('picking', () => {
  const listed = [
    { name: 'pdf-fill', rel: 'skills/.curated/pdf-fill' },
    { name: 'pdf-merge', rel: 'skills/.curated/pdf-merge' },
    { name: 'essay', rel: 'skills/(writing)/essay' },
    { name: 'essay', rel: 'other/essay' },
    { name: 'broken', rel: 'skills/broken', problem: 'skill.toml: bad' },
  ];
  const names = (r: ReturnType<typeof pickSkills>) => (r.ok ? r.value.picks.map((s) => s.rel) : r.error.message);

  it('by name, path, glob or --all; a broken pick is refused, not fatal; a bad pattern is a usage error', () => {
    expect(names(pickSkills(listed, [], ['pdf-*']))).toEqual(['skills/.curated/pdf-fill', 'skills/.curated/pdf-merge']);
    expect(names(pickSkills(listed, [], ['essay']))).toEqual(['skills/(writing)/essay', 'other/essay']);
    expect(names(pickSkills(listed, [], ['other/essay/']))).toEqual(['other/essay']);
    expect(names(pickSkills(listed, [], ['skills/(writing)/*']))).toEqual(['skills/(writing)/essay']);
    expect(pickSkills(listed, [], 'all')).toEqual({
      ok: true,
      value: { picks: listed.slice(0, 4), refused: [{ name: 'broken', why: 'skill.toml: bad' }] },
    });
    expect(names(pickSkills(listed, [], ['pdf-[']))).toBe('--skill "pdf-[": not a pattern (an unclosed [ ?)');
    expect(names(pickSkills(listed, [], ['nope']))).toBe(
      'no skill named "nope" in this source (it has: pdf-fill, pdf-merge, essay, essay, broken)',
    );
  });
});
