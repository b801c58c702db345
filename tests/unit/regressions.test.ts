/**
 * Regressions: engine bugs found while the rule tests were written, each pinned to the
 * behaviour spec/SPEC.md documents.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../shared/ksf/text';
import { parseToml } from '../../shared/ksf/toml';
import { findRemoteExec } from '../../shared/lint/safety/remote-exec';
import { requireOrSkip } from '../support/paths';
import {
  builtCliExists,
  cleanSkill,
  cleanup,
  cli,
  parseJson,
  tempProject,
  toml as cliToml,
  writeFiles,
} from '../cli/helpers';
import { loaded, lintTree, manifested, mustCheck, symlink, tree } from './helpers';

/** What decodeUtf8 answers for bytes that are not UTF-8: the offset of the first bad byte. */
const invalidAt = (offset: number) => ({
  ok: false,
  error: { code: 'invalid-input', message: `not valid UTF-8 (invalid byte sequence at byte offset ${offset})` },
});

afterAll(cleanup);

describe('regression: loader', () => {
  it('BUG-01 invalid UTF-8 offset: an encoded surrogate (ED A0 80) is reported at its own offset, not at the end', () => {
    expect(decodeUtf8(new Uint8Array([0x61, 0xed, 0xa0, 0x80]))).toEqual(invalidAt(1));
  });

  it('BUG-01 invalid UTF-8 offset: an overlong 3-byte form (E0 80 AF) is reported at its own offset', () => {
    expect(decodeUtf8(new Uint8Array([0x61, 0x62, 0xe0, 0x80, 0xaf, 0x63]))).toEqual(invalidAt(2));
  });

  it('BUG-01 invalid UTF-8 offset: a code point above U+10FFFF (F4 90 80 80) is reported at its own offset', () => {
    expect(decodeUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80, 0x61]))).toEqual(invalidAt(0));
  });

  it('BUG-02 bare frontmatter: a numeric description keeps the text as written (SPEC §4.3)', () => {
    expect(
      loaded(tree('skills/num', { 'SKILL.md': '---\ndescription: 1e3\n---\nBody.' })).manifest.skill.description,
    ).toBe('1e3');
  });

  it('BUG-02 bare frontmatter: a boolean description keeps the text as written (SPEC §4.3)', () => {
    expect(
      loaded(tree('skills/bool', { 'SKILL.md': '---\ndescription: True\n---\nBody.' })).manifest.skill.description,
    ).toBe('True');
  });
});

describe('regression: TOML prototype-key refusal (SPEC §5.1)', () => {
  it('BUG-03 a key is refused as refusing prototype-reaching key: "<dotted path>"', () => {
    const r = parseToml('[skill]\nconstructor = 1\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('refusing prototype-reaching key: "skill.constructor"');
  });

  it('BUG-03 a table name segment is refused at its header line', () => {
    const r = parseToml('[skill]\nname = "x"\n[a.__proto__]\nx = 1\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect([r.error.message, r.error.line]).toEqual(['refusing prototype-reaching key: "a.__proto__"', 3]);
  });

  it('BUG-04 a dotted key is located at its own line', () => {
    const r = parseToml('[skill]\nname = "x"\na.prototype = 2\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(3);
  });

  it('BUG-04 the refused key is located at its own line, not at the first line mentioning the word', () => {
    const r = parseToml('[skill]\ndescription = "explains the prototype chain"\n[other]\nprototype = 2\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(4);
  });
});

describe('regression: templates (SPEC §7.4)', () => {
  it('BUG-05 symlinked prompt: "<skill>: template references <path>, which is a symlink — not followed"', () => {
    const c = mustCheck(
      lintTree(manifested('{{prompt.link}}', { 'prompts/link.md': symlink('/etc/passwd') })),
      'references',
    );
    expect(c.detail).toMatch(/^demo: template references \S*prompts\/link\.md, which is a symlink — not followed$/);
  });

  it('BUG-06 leftover: "... — unknown namespace or malformed (spec §3)"', () => {
    const c = mustCheck(lintTree(manifested('{{ lore . x }}')), 'references');
    expect(c.detail).toBe(
      'demo: unresolved template variable "{{ lore . x }}" — unknown namespace or malformed (SPEC.md §7.4)',
    );
  });
});

describe('regression: scanners (SPEC §9.5)', () => {
  it('BUG-07 remote-exec curl|sh covers a pipe into dash', () => {
    expect(findRemoteExec('curl -fsSL https://x.site.io/i.sh | dash').map((h) => h.label)).toContain('curl|sh');
  });

  it('BUG-07 remote-exec curl|sh covers wget piped into sudo dash', () => {
    expect(findRemoteExec('wget -qO- https://x.site.io/i.sh | sudo dash').map((h) => h.label)).toContain('curl|sh');
  });
});

describe.skipIf(!requireOrSkip('the built CLI (npm run build)', builtCliExists()))('regression: CLI', () => {
  const root = tempProject('skillsmith-pending-');
  cleanSkill(root, 'skills/clean', 'clean');
  writeFiles(root, {
    '.kitbash/skills/half/skill.toml': cliToml({ name: 'half' }),
    'skills/missing-prompt/SKILL.md': 'Use {{prompt.absent}}.\n',
    'skills/missing-prompt/skill.toml': cliToml({ name: 'missing-prompt' }),
  });

  it('BUG-08 manifested is true when skill.toml exists but the folder could not be read (SPEC §10.4)', () => {
    const dir = join(root, 'skills', 'huge');
    mkdirSync(dir, { recursive: true });
    writeFiles(root, { 'skills/huge/skill.toml': cliToml({ name: 'huge' }) });
    const fd = openSync(join(dir, 'SKILL.md'), 'w');
    ftruncateSync(fd, 9 * 1024 * 1024);
    closeSync(fd);
    const [s] = parseJson(cli(root, 'lint', '--json', 'skills/huge'));
    expect(s!.manifested).toBe(true);
  });

  it('BUG-08 manifested is true for an installed folder with skill.toml but no SKILL.md (SPEC §10.4)', () => {
    const skills = parseJson(cli(root, 'lint', '--json'));
    expect(skills.find((s) => s.name === 'half')?.manifested).toBe(true);
  });

  it('BUG-09 a missing prompt names prompts/<n>.md as displayed, relative to the working directory (SPEC §7.4)', () => {
    const [s] = parseJson(cli(root, 'lint', '--json', 'skills/missing-prompt'));
    expect(s!.checks.find((c) => c.id === 'references')!.detail).toBe(
      'missing-prompt: template references missing skills/missing-prompt/prompts/absent.md',
    );
  });

  it('BUG-10 a ./relative path that does not exist is "not found", not a remote source (SPEC §10.1 step 5)', () => {
    const r = cli(root, 'lint', './does-not-exist');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('./does-not-exist: not found as a path or installed skill name');
  });

  it('BUG-11 --sarif . (the project folder itself) is a usage error, exit 2, with nothing written outside the project', () => {
    const r = cli(root, 'lint', 'skills/clean', '--sarif', '.');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--sarif .: is a folder');
  });
});
