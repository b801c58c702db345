import { describe, expect, it } from 'vitest';
import { globMatches } from '../../shared/policy/policy';
import { globMatch } from '../../shared/text/glob';

// The two rule sets of SPEC D271, one table each, so a change to either is seen here.

describe('path globs (eval files_changed / files_unchanged)', () => {
  it.each([
    ['*.md', 'README.md', true],
    ['*.md', 'docs/deep/README.md', true], // no slash: the name in any folder
    ['/README.md', 'docs/README.md', false], // a leading slash anchors at the top
    ['/README.md', 'README.md', true],
    ['./src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a/b.ts', false], // `*` stays within one name
    ['src/**/*.ts', 'src/b.ts', true], // `**/` is zero or more folders
    ['src/**/*.ts', 'src/a/b/c.ts', true],
    ['src', 'src/a/b.ts', true], // a folder covers everything below it
    ['src/', 'src/a.ts', true],
    ['src', 'srcx/a.ts', false],
    ['a?.md', 'ab.md', true],
    ['a?.md', 'a/.md', false], // `?` is never a slash
    ['*.{js,ts}', 'lib/x.ts', true], // braces: either
    ['*.{js,ts}', 'lib/x.tsx', false],
    ['file[12].txt', 'file2.txt', true], // brackets: one of
    ['file[12].txt', 'file3.txt', false],
    ['*', '.env', true], // dot files are ordinary names
    ['**', '.github/workflows/ci.yml', true],
    ['*.MD', 'README.md', false], // case-sensitive
    ['!(a).md', 'b.md', false], // no extglobs
    ['!*.md', 'a.ts', false], // a leading `!` does not negate
  ])('%s against %s: %s', (glob, path, expected) => {
    expect(globMatch(glob, path)).toBe(expected);
  });
});

describe('policy patterns (allow_sources / allow_mcp_servers): kitbash 0.24.1 wildcards', () => {
  it.each([
    ['gh:acme/*', 'gh:acme/tools/skills/x@v1', true], // `*` runs across `/`
    ['gh:acme/*', 'gh:Acme/tools', false],
    ['gh:acme/{a,b}', 'gh:acme/a', false], // braces, `?` and brackets are literal
    ['gh:acme/{a,b}', 'gh:acme/{a,b}', true],
    ['gh:acme/x?', 'gh:acme/xy', false],
    ['gh:acme/[ab]', 'gh:acme/a', false],
    ['gh:o/.*', 'gh:o/.hidden', true],
    ['npx *', 'npx server', true],
    ['npx *', 'npx server\nrm -rf ~', false], // `*` does not run across a line break, as in kitbash
    ['*', '', true],
  ])('%s against %j: %s', (pattern, subject, expected) => {
    expect(globMatches(pattern, subject)).toBe(expected);
  });
});
