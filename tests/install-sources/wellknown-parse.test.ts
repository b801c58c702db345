/** The pure half of discovery-index sources: the source syntax, the index reader, archive entry paths. */
import { describe, expect, it } from 'vitest';
import { archiveEntryPath, archiveSkillRoot } from '../../shared/lock/archive-path';
import { parseLock, serializeLock, type LockEntry } from '../../shared/lock/lockfile';
import { canonicalSource, parseSource, sourceAt } from '../../shared/lock/source';
import { parseIndex, WELLKNOWN_SCHEMA } from '../../shared/lock/wellknown';

const INDEX = '/.well-known/agent-skills/index.json';
const never = () => false;
const digest = `sha256:${'a'.repeat(64)}`;

describe('the wellknown: source syntax', () => {
  it('reads a host, a full index URL and a picked skill; a bare index URL is an index too', () => {
    const host = parseSource('wellknown:https://example.com', never);
    expect(host).toEqual({
      ok: true,
      value: { kind: 'wellknown', raw: 'wellknown:https://example.com', index: `https://example.com${INDEX}` },
    });
    const picked = parseSource(`https://example.com/docs${INDEX}#code-review`, never);
    expect(picked.ok && picked.value).toMatchObject({
      kind: 'wellknown',
      index: `https://example.com/docs${INDEX}`,
      skill: 'code-review',
    });
    expect(picked.ok && canonicalSource(picked.value)).toBe(`wellknown:https://example.com/docs${INDEX}#code-review`);
    expect(host.ok && sourceAt(host.value, 'wrangler')).toBe(`wellknown:https://example.com${INDEX}#wrangler`);
  });

  it('leaves every git URL a git URL', () => {
    for (const raw of ['https://example.com/x.git', 'https://example.com/owner/repo', 'http://example.com/r.git#main'])
      expect(parseSource(raw, never)).toMatchObject({ ok: true, value: { kind: 'git' } });
  });

  it('refuses http://, a path that is not the index, and a fragment that is not a skill name', () => {
    const plain = parseSource(`http://example.com${INDEX}`, never);
    expect(!plain.ok && plain.error.message).toBe(
      `http://example.com${INDEX}: a well-known skills index is fetched over HTTPS only — use https://example.com${INDEX}`,
    );
    const path = parseSource('wellknown:https://example.com/skills.json', never);
    expect(!path.ok && path.error.message).toContain(
      'give the host (wellknown:https://example.com) or the full index URL',
    );
    const frag = parseSource('wellknown:https://example.com#Not_A_Name', never);
    expect(!frag.ok && frag.error.message).toContain('"#Not_A_Name" is not a skill name');
    expect(parseSource('wellknown:example.com', never).ok).toBe(false);
  });
});

describe('reading an index', () => {
  const entry = (over: object = {}) => ({
    name: 'code-review',
    type: 'skill-md',
    description: 'Review code.',
    url: 'code-review/SKILL.md',
    digest,
    ...over,
  });
  const read = (skills: unknown[], schema: unknown = WELLKNOWN_SCHEMA) =>
    parseIndex(JSON.stringify({ $schema: schema, skills, extra: 'ignored' }), 'index.json');

  it('keeps a valid entry, skips an unknown type, and lists a broken entry with its problem', () => {
    const r = read([
      entry(),
      entry({ name: 'later', type: 'plugin' }),
      entry({ name: 'Bad_Name' }),
      entry({ name: 'no-digest', digest: 'sha256:XYZ' }),
      entry({ name: 'long', description: 'x'.repeat(1025) }),
      entry(),
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.skipped).toEqual(['later: type "plugin" is not skill-md or archive — skipped']);
    expect(r.value.entries.map((e) => [e.name, e.problem])).toEqual([
      ['code-review', undefined],
      [
        'Bad_Name',
        'the index names it "Bad_Name", not an Agent Skills name (a-z, 0-9, single hyphens, at most 64 characters)',
      ],
      ['no-digest', 'its digest "sha256:XYZ" is not sha256:<64 lower-case hex digits>'],
      ['long', 'its description is longer than 1024 characters (1025)'],
      ['code-review', 'the index lists code-review twice'],
    ]);
  });

  it('refuses a v0.1.0 index, an unknown $schema and a document that is not an index', () => {
    const old = parseIndex(JSON.stringify({ skills: [] }), 'index.json');
    expect(!old.ok && old.error.message).toContain('has no "$schema", so it is a v0.1.0 index');
    const future = read([], 'https://schemas.agentskills.io/discovery/9.0.0/schema.json');
    expect(!future.ok && future.error.message).toContain('not a discovery index version Skillsmith knows');
    expect(parseIndex('[', 'index.json').ok).toBe(false);
    const noSkills = parseIndex(JSON.stringify({ $schema: WELLKNOWN_SCHEMA }), 'index.json');
    expect(!noSkills.ok && noSkills.error.message).toBe('"skills" is not an array');
  });
});

describe('archive entry paths', () => {
  it('normalizes . segments and refuses traversal, absolute paths, backslashes and overlong names', () => {
    expect(archiveEntryPath('./scripts/run.sh')).toEqual({ ok: true, value: 'scripts/run.sh' });
    expect(archiveEntryPath('./')).toEqual({ ok: true, value: '' });
    const why = (p: string) => {
      const r = archiveEntryPath(p);
      return r.ok ? undefined : r.error.message;
    };
    expect(why('a/../../etc/passwd')).toBe('a ".." segment (path traversal)');
    expect(why('/etc/passwd')).toBe('an absolute path');
    expect(why('C:/Windows')).toBe('an absolute path');
    expect(why('a\\..\\b')).toBe('a backslash in the path');
    expect(why('a\nb')).toBe('a control character in the path');
    expect(why(`${'a'.repeat(256)}/x`)).toBe('a path segment longer than 255 characters');
    expect(why('a/'.repeat(600))).toBe('a path longer than 1024 characters');
  });

  it('finds the skill at the root or in the one folder holding everything', () => {
    expect(archiveSkillRoot(['SKILL.md', 'scripts/a.sh'])).toBe('');
    expect(archiveSkillRoot(['pdf/SKILL.md', 'pdf/refs/x.md'])).toBe('pdf');
    expect(archiveSkillRoot(['a/SKILL.md', 'b/SKILL.md'])).toBeUndefined();
    expect(archiveSkillRoot(['README.md'])).toBeUndefined();
  });
});

describe('the lock pins the digest', () => {
  it('round-trips digest next to the source', () => {
    const e: LockEntry = {
      name: 'code-review',
      version: '0.0.0',
      source: `wellknown:https://example.com${INDEX}#code-review`,
      integrity: `sha256-${'b'.repeat(64)}`,
      resolved: `wellknown:https://example.com${INDEX}#code-review`,
      digest,
      executable: [],
    };
    const text = serializeLock([e]);
    expect(text).toContain(`\ndigest = "${digest}"\n`);
    expect(parseLock(text)).toEqual({ ok: true, value: [e] });
  });
});
