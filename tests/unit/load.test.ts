import { describe, expect, it } from 'vitest';
import { fileError, formatError } from '../../shared/result';
import { BARE_DEFAULTS, loadSkill, slug } from '../../shared/ksf/load';
import { LIMITS, type SkillTree, type TreeEntry } from '../../shared/ksf/tree';
import { loaded, loadFailure, manifestToml, symlink, tree, utf8 } from './helpers';

const BOM = '\uFEFF';

describe('loadSkill: manifested skills (SPEC §4.2)', () => {
  it('loads SKILL.md + skill.toml', () => {
    const s = loaded(tree('skills/demo', { 'SKILL.md': '# Demo\n\nBody.\n', 'skill.toml': manifestToml() }));
    expect(s.manifested).toBe(true);
    expect(s.manifest.skill).toMatchObject({ name: 'demo', version: '1.0.0' });
    expect(s.manifest.context).toEqual({ budget: 1500, standing: 100, disclosure: 'lazy' });
    expect(s.body).toBe('# Demo\n\nBody.\n');
    expect(s.bodyOffset).toBe(0);
    expect(s.rawManifest).toMatchObject({ skill: { name: 'demo' } });
  });

  it('keeps the whole file as the body when there is no frontmatter (leading whitespace included)', () => {
    const s = loaded(tree('d', { 'SKILL.md': '\n\n  Body.\n', 'skill.toml': manifestToml() }));
    expect(s.body).toBe('\n\n  Body.\n');
  });

  it('excludes the frontmatter from the body (D6) but keeps it for the scanners', () => {
    const md = '---\nname: demo\ndescription: long frontmatter text\n---\n\n# Demo\n\nBody.\n';
    const s = loaded(tree('d', { 'SKILL.md': md, 'skill.toml': manifestToml() }));
    expect(s.body).toBe('# Demo\n\nBody.\n');
    expect(s.frontmatter?.raw).toBe('---\nname: demo\ndescription: long frontmatter text\n---\n');
    expect(s.skillMd).toBe(md);
    expect(s.skillMd.slice(s.bodyOffset)).toBe(s.body);
  });

  it('takes the name from skill.toml, not from frontmatter or the folder', () => {
    const s = loaded(
      tree('skills/folder-name', {
        'SKILL.md': '---\nname: front-name\n---\nx',
        'skill.toml': manifestToml({ name: 'toml-name' }),
      }),
      {
        nameHint: 'hint-name',
      },
    );
    expect(s.manifest.skill.name).toBe('toml-name');
  });

  it('strips a leading BOM from SKILL.md and skill.toml', () => {
    const s = loaded(tree('d', { 'SKILL.md': `${BOM}# Demo\n\nBody.`, 'skill.toml': `${BOM}${manifestToml()}` }));
    expect(s.skillMd).toBe('# Demo\n\nBody.');
    expect(s.body.startsWith(BOM)).toBe(false);
    expect(s.manifest.skill.name).toBe('demo');
  });

  it('reports invalid TOML with the file, line and column', () => {
    const e = loadFailure(
      tree('skills/demo', { 'SKILL.md': 'x', 'skill.toml': '[skill]\nname = "demo"\nbroken = \n' }),
    );
    expect(e.file).toBe('skills/demo/skill.toml');
    expect(e.line).toBe(3);
    expect(e.column).toBeGreaterThanOrEqual(1);
    expect(e.message).toMatch(/^invalid TOML: /);
    expect(formatError(e)).toMatch(/^skills\/demo\/skill\.toml:3:\d+: invalid TOML: /);
    expect(formatError(e)).not.toContain('\n');
  });

  it('reports a duplicate key as a TOML error at its line', () => {
    const e = loadFailure(
      tree('d', { 'SKILL.md': 'x', 'skill.toml': `${manifestToml()}[permissions]\nnetwork = false\nnetwork = true\n` }),
    );
    expect(e.file).toBe('d/skill.toml');
    expect(e.line).toBe(manifestToml().split('\n').length + 2);
  });

  it('reports a prototype-reaching key as a load error naming skill.toml', () => {
    const e = loadFailure(
      tree('d', { 'SKILL.md': 'x', 'skill.toml': `${manifestToml()}[permissions]\n__proto__ = true\n` }),
    );
    expect(e.file).toBe('d/skill.toml');
    expect(e.message).toContain('prototype-reaching');
  });

  it('collects every manifest problem into one error naming skill.toml', () => {
    const e = loadFailure(
      tree('skills/demo', {
        'SKILL.md': 'x',
        'skill.toml': '[skill]\nname = "Bad"\nversion = "1"\ndescription = "short"\n[context]\nbudget = 1\n',
      }),
    );
    expect(e.file).toBe('skills/demo/skill.toml');
    expect(e.message).toBe('invalid manifest');
    expect(e.detail).toEqual([
      'skill.name "Bad" must match /^[a-z][a-z0-9-]{1,40}$/',
      'skill.version "1" is not semver',
      'skill.description must be 10–200 characters',
      'context.budget is required and must be 50–20000',
    ]);
    expect(formatError(e)).toBe(
      [
        'skills/demo/skill.toml: invalid manifest',
        '  - skill.name "Bad" must match /^[a-z][a-z0-9-]{1,40}$/',
        '  - skill.version "1" is not semver',
        '  - skill.description must be 10–200 characters',
        '  - context.budget is required and must be 50–20000',
      ].join('\n'),
    );
  });
});

describe('loadSkill: bare skills (SPEC §4.3)', () => {
  it('synthesises the documented defaults', () => {
    const s = loaded(tree('skills/my-skill', { 'SKILL.md': '# Hi\n\nBody.' }));
    expect(s.manifested).toBe(false);
    expect(s.rawManifest).toBeUndefined();
    expect(s.manifest).toEqual({
      skill: { name: 'my-skill', version: '0.0.0', description: 'Imported skill (no manifest)', authors: [] },
      context: { budget: 6000, standing: 250, disclosure: 'lazy' },
      triggers: { commands: [], auto: [], events: [] },
      permissions: { tools: [], network: false, write: false },
      artifacts: { produces: [], consumes: [] },
      targets: { requires: [], mode: 'skill' },
      lore: { reads: [], writes: [] },
      dependencies: {},
      mcp: { onUnsupported: 'warn', servers: [] },
    });
    expect(BARE_DEFAULTS).toEqual({
      version: '0.0.0',
      budget: 6000,
      standing: 250,
      description: 'Imported skill (no manifest)',
    });
  });

  it('uses the frontmatter name and description (description not length-checked)', () => {
    const s = loaded(tree('skills/folder', { 'SKILL.md': '---\nname: front\ndescription: x\n---\nBody.' }));
    expect(s.manifest.skill.name).toBe('front');
    expect(s.manifest.skill.description).toBe('x');
    const long = 'y'.repeat(500);
    expect(
      loaded(tree('f', { 'SKILL.md': `---\ndescription: ${long}\n---\nBody.` }), { nameHint: 'ok-name' }).manifest.skill
        .description,
    ).toBe(long);
  });

  it('accepts an empty frontmatter description as written', () => {
    const s = loaded(tree('skills/folder', { 'SKILL.md': '---\nname: front\ndescription: ""\n---\nBody.' }));
    expect(s.manifest.skill.description).toBe('');
  });

  it('reads frontmatter keys case-insensitively', () => {
    expect(loaded(tree('f', { 'SKILL.md': '---\nNAME: upper-key\n---\nBody.' })).manifest.skill.name).toBe('upper-key');
  });

  it('removes the frontmatter and leading whitespace from the body', () => {
    const s = loaded(tree('skills/x', { 'SKILL.md': '---\nname: x-skill\n---\n\n\n  Body.\n' }));
    expect(s.body).toBe('Body.\n');
    expect(s.skillMd.slice(s.bodyOffset)).toBe('Body.\n');
  });

  it('trims leading whitespace from a bare body without frontmatter', () => {
    const s = loaded(tree('skills/xy', { 'SKILL.md': '\n\n# T\n' }));
    expect(s.body).toBe('# T\n');
    expect(s.bodyOffset).toBe(2);
  });

  it('derives the name from the name hint when the frontmatter name is invalid', () => {
    const s = loaded(tree('skills/folder', { 'SKILL.md': '---\nname: Not Valid\n---\nBody.' }), {
      nameHint: 'From Hint',
    });
    expect(s.manifest.skill.name).toBe('from-hint');
  });

  it('derives the name from the folder (basename of the root) without a hint', () => {
    expect(loaded(tree('a/b/My_Folder', { 'SKILL.md': 'Body.' })).manifest.skill.name).toBe('my-folder');
    expect(loaded(tree('a/b/trailing/', { 'SKILL.md': 'Body.' })).manifest.skill.name).toBe('trailing');
  });

  it('prefers the hint over the folder name', () => {
    expect(loaded(tree('skills/folder', { 'SKILL.md': 'Body.' }), { nameHint: 'hinted' }).manifest.skill.name).toBe(
      'hinted',
    );
  });

  it('keeps the line-fallback reading of invalid YAML frontmatter, flagged with yamlError', () => {
    const s = loaded(tree('skills/f', { 'SKILL.md': '---\nname: fallback-name\ndescription: a: b\n---\nBody.' }));
    expect(s.frontmatter?.yamlError).toBeTruthy();
    expect(s.manifest.skill.name).toBe('fallback-name');
    expect(s.manifest.skill.description).toBe('a: b');
  });

  it('fails when no valid name can be derived', () => {
    const e = loadFailure(tree('skills/123', { 'SKILL.md': 'Body.' }));
    expect(e.file).toBe('skills/123');
    expect(e.message).toMatch(/^cannot derive a valid skill name \(got ""\)/);
    expect(formatError(e)).toBe(
      'skills/123: cannot derive a valid skill name (got "") — add a skill.toml or a frontmatter name',
    );
  });

  it('fails for a one-letter slug, quoting it', () => {
    const e = loadFailure(tree('skills/x', { 'SKILL.md': 'Body.' }));
    expect(e.message).toMatch(/^cannot derive a valid skill name \(got "x"\)/);
  });
});

describe('slug (the reference folder-name slug)', () => {
  it.each([
    ['My Skill', 'my-skill'],
    ['my_skill.v2', 'my-skill-v2'],
    ['123abc', 'abc'],
    ['--abc', 'abc'],
    ['a!!!b', 'a-b'],
    ['Ünïcode', 'n-code'],
    ['a'.repeat(50), 'a'.repeat(40)],
    ['42', ''],
  ])('%j → %j', (input, out) => {
    expect(slug(input)).toBe(out);
  });
});

describe('loadSkill: required files and encoding (SPEC §3.1, §4)', () => {
  it('fails without SKILL.md, naming the folder and SKILL.md', () => {
    const e = loadFailure(tree('skills/empty', { 'README.md': 'x' }));
    expect(e.file).toBe('skills/empty');
    expect(formatError(e)).toBe(
      'skills/empty: no SKILL.md here — a skill is a folder with SKILL.md (and optionally skill.toml); point at that folder',
    );
  });

  it('fails when skill.toml exists but SKILL.md does not', () => {
    const e = loadFailure(tree('skills/only-toml', { 'skill.toml': manifestToml() }));
    expect(e.file).toBe('skills/only-toml');
    expect(e.message).toContain('SKILL.md');
  });

  it('refuses a SKILL.md directory', () => {
    const e = loadFailure(tree('d', { 'SKILL.md/inner.md': 'x' }));
    expect(e.file).toBe('d/SKILL.md');
    expect(e.message).toMatch(/directory/);
  });

  it('refuses non-UTF-8 SKILL.md, naming the file and the byte offset', () => {
    const bytes = new Uint8Array([...utf8('# Title\n'), 0xff, ...utf8('rest')]);
    const e = loadFailure(tree('skills/demo', { 'SKILL.md': bytes }));
    expect(e.file).toBe('skills/demo/SKILL.md');
    expect(formatError(e)).toBe('skills/demo/SKILL.md: not valid UTF-8 (invalid byte sequence at byte offset 8)');
  });

  it('refuses non-UTF-8 skill.toml, naming the file and the byte offset', () => {
    const bytes = new Uint8Array([...utf8('[skill]\nname = "'), 0xc3, 0x28, ...utf8('"\n')]);
    const e = loadFailure(tree('skills/demo', { 'SKILL.md': 'ok', 'skill.toml': bytes }));
    expect(e.file).toBe('skills/demo/skill.toml');
    expect(formatError(e)).toBe('skills/demo/skill.toml: not valid UTF-8 (invalid byte sequence at byte offset 16)');
  });

  it('refuses an overlong two-byte encoding at its offset', () => {
    expect(loadFailure(tree('d', { 'SKILL.md': new Uint8Array([0xc0, 0xaf]) })).message).toMatch(/\b0\b/);
    expect(loadFailure(tree('d', { 'SKILL.md': new Uint8Array([0x61, 0x62, 0x63, 0xc1, 0xbf]) })).message).toMatch(
      /\b3\b/,
    );
  });

  it('refuses a truncated multi-byte sequence at the end', () => {
    expect(loadFailure(tree('d', { 'SKILL.md': new Uint8Array([0x61, 0x62, 0xe2, 0x82]) })).message).toMatch(/\b2\b/);
  });

  it('refuses a symlinked SKILL.md, naming it', () => {
    const e = loadFailure(tree('skills/demo', { 'SKILL.md': symlink('/etc/passwd') }));
    expect(e.file).toBe('skills/demo/SKILL.md');
    expect(e.message).toMatch(/symlink/);
  });

  it('refuses a symlinked skill.toml, naming it', () => {
    const e = loadFailure(tree('skills/demo', { 'SKILL.md': 'x', 'skill.toml': symlink('../other/skill.toml') }));
    expect(e.file).toBe('skills/demo/skill.toml');
    expect(e.message).toMatch(/symlink/);
  });

  it('does not require the other text files to be UTF-8', () => {
    loaded(tree('skills/demo', { 'SKILL.md': 'ok', 'scripts/blob.bin': new Uint8Array([0xff, 0xfe, 0x00]) }));
  });
});

describe('loadSkill: size and count limits (SPEC §3.2, D10)', () => {
  it('has the documented limits', () => {
    expect(LIMITS).toEqual({ maxFileBytes: 8_388_608, maxSkillBytes: 67_108_864, maxEntries: 10_000 });
  });

  it('refuses a file over 8 MiB, naming it', () => {
    const e = loadFailure(
      tree('skills/big', { 'SKILL.md': 'x', 'fixtures/huge.txt': new Uint8Array(LIMITS.maxFileBytes + 1) }),
    );
    expect(e.file).toBe('skills/big/fixtures/huge.txt');
    expect(e.message).toMatch(/8 MiB/);
    expect(formatError(e)).not.toContain('\n');
  });

  it('accepts a file of exactly 8 MiB', () => {
    loaded(tree('skills/big', { 'SKILL.md': 'x', 'fixtures/edge.txt': new Uint8Array(LIMITS.maxFileBytes) }));
  });

  it('refuses an over-size SKILL.md before reading it', () => {
    const e = loadFailure(tree('skills/big', { 'SKILL.md': new Uint8Array(LIMITS.maxFileBytes + 10).fill(0x61) }));
    expect(e.file).toBe('skills/big/SKILL.md');
  });

  it('refuses a skill over 64 MiB in total, naming the folder', () => {
    const chunk = new Uint8Array(LIMITS.maxFileBytes);
    const files: Record<string, Uint8Array | string> = { 'SKILL.md': 'x' };
    for (let i = 0; i < 9; i++) files[`fixtures/part-${i}.bin`] = chunk;
    const e = loadFailure(tree('skills/total', files));
    expect(e.file).toBe('skills/total');
    expect(e.message).toMatch(/64 MiB/);
  });

  it('refuses more than 10,000 entries, naming the folder and the limit', () => {
    const entries: TreeEntry[] = [{ kind: 'file', path: 'SKILL.md', bytes: utf8('x') }];
    for (let i = 0; i < LIMITS.maxEntries; i++) entries.push({ kind: 'dir', path: `d${i}` });
    const t: SkillTree = { root: 'skills/many', entries };
    const e = loadFailure(t);
    expect(e.file).toBe('skills/many');
    expect(e.message).toContain('10000');
    expect(formatError(e)).not.toContain('\n');
  });

  it('accepts exactly 10,000 entries', () => {
    const entries: TreeEntry[] = [{ kind: 'file', path: 'SKILL.md', bytes: utf8('x') }];
    for (let i = 1; i < LIMITS.maxEntries; i++) entries.push({ kind: 'symlink', path: `l${i}`, target: 'x' });
    expect(loadSkill({ root: 'skills/edge-count', entries }).ok).toBe(true);
  });
});

describe('formatError', () => {
  it('formats file, file:line and file:line:column', () => {
    expect(formatError(fileError('a/skill.toml', 'boom'))).toBe('a/skill.toml: boom');
    expect(formatError(fileError('a/skill.toml', 'boom', { line: 3 }))).toBe('a/skill.toml:3: boom');
    expect(formatError(fileError('a/skill.toml', 'boom', { line: 3, column: 7 }))).toBe('a/skill.toml:3:7: boom');
  });

  it('lists detail indented under the first line', () => {
    expect(formatError(fileError('f', 'invalid manifest', { detail: ['one', 'two'] }))).toBe(
      'f: invalid manifest\n  - one\n  - two',
    );
    expect(formatError(fileError('f', 'm', { detail: [] }))).toBe('f: m');
  });
});
