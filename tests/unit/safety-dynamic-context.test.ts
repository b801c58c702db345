import { describe, expect, it } from 'vitest';
import { findDynamicContext } from '../../shared/lint/safety/dynamic-context';
import { check, lintTree, manifested, mustCheck } from './helpers';

describe('findDynamicContext (SPEC §9.5)', () => {
  it('finds !`cmd`', () => {
    expect(findDynamicContext('Run !`git status` first.')).toEqual([
      { label: '!`git status`', offset: 4, length: 13, match: '!`git status`' },
    ]);
  });

  it('finds every occurrence', () => {
    expect(findDynamicContext('!`a` and !`b`').map((h) => h.offset)).toEqual([0, 9]);
  });

  it('labels with the first 40 characters of the match', () => {
    const long = `!\`${'x'.repeat(60)}\``;
    expect(findDynamicContext(long)[0]!.label).toBe(long.slice(0, 40));
  });

  it('finds a fence opened with ! (run as a block while loading), and only that fence', () => {
    const text = 'Intro\n```bash\nls\n```\n```!\ncurl -s x | sh\n```\nafter ```! not at a line start\n';
    const hits = findDynamicContext(text);
    expect(hits.map((h) => h.match)).toEqual(['```!\ncurl -s x | sh\n```']);
    expect(hits[0]!.offset).toBe(text.indexOf('```!'));
  });

  // Read from Claude Code 2.1.197, 2.0.77 and 1.0.128 (D244).
  it('finds what the real preprocessor runs: a span across lines, a block anywhere, a 4-backtick opener', () => {
    expect(findDynamicContext('Now !`git\nstatus` ok').map((h) => h.match)).toEqual(['!`git\nstatus`']);
    expect(findDynamicContext('see ```!date``` here').map((h) => h.match)).toEqual(['```!date```']);
    expect(findDynamicContext('````!\nwhoami\n````').map((h) => h.offset)).toEqual([1]);
    expect(findDynamicContext('- !`id`').map((h) => h.match)).toEqual(['!`id`']);
  });

  it('follows 2.1.197: a ! after anything but whitespace runs nothing, nor does a ! in a blanked code span', () => {
    expect(findDynamicContext('(!`id`)')).toEqual([]);
    // Single-line code spans are blanked first, so a table of `!` prefixes runs nothing.
    expect(findDynamicContext('| `!` | deployed |\n| `~` | changed |')).toEqual([]);
    // A span opened right after a ! is kept: the command itself.
    expect(findDynamicContext('Status: !`git status` and `x`').map((h) => h.match)).toEqual(['!`git status`']);
  });

  it('ignores what no version runs: a tilde block, an unclosed block, a ! after a word character, a blank command', () => {
    expect(findDynamicContext('  ~~~~!\nwhoami\n~~~~')).toEqual([]);
    expect(findDynamicContext('```!\nwhoami')).toEqual([]);
    expect(findDynamicContext('Hello!`id` and $x!`y`')).toEqual([]);
    expect(findDynamicContext('!`  ` and ```!\n\n```')).toEqual([]);
  });

  it('ignores an empty span, a space after !, and plain code spans', () => {
    expect(findDynamicContext('!``')).toEqual([]);
    expect(findDynamicContext('! `git status`')).toEqual([]);
    expect(findDynamicContext('Run `git status` first!')).toEqual([]);
  });
});

describe('dynamic-context in lintSkill', () => {
  it('is absent when nothing matches', () => {
    expect(check(lintTree(manifested('Body')), 'dynamic-context')).toBeUndefined();
  });

  it('fails on a match in SKILL.md with its location', () => {
    const c = mustCheck(lintTree(manifested('Line\nNow !`whoami` ok')), 'dynamic-context');
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('!`whoami`');
    expect(c.locations).toEqual([{ file: 'SKILL.md', line: 2, column: 5, endLine: 2, endColumn: 14 }]);
  });

  it('fails on a match in a prompt file that is never referenced (D1)', () => {
    const c = mustCheck(lintTree(manifested('Body', { 'prompts/unused.md': 'x !`id`' })), 'dynamic-context');
    expect(c.status).toBe('fail');
    expect(c.locations?.[0]?.file).toBe('prompts/unused.md');
  });

  it('fails when substitution forms the shape: !{{artifact.plan}} in SKILL.md', () => {
    const c = mustCheck(lintTree(manifested('Load !{{artifact.plan}} now.')), 'dynamic-context');
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('!`.kitbash/artifacts/plan.json`');
    expect(c.detail).toContain('once templates are resolved');
  });
});

describe('dynamic-context only where a host preprocesses (issue 14)', () => {
  it.each(['references/brenda.md', 'scripts/tool.py', 'docs/guide.md', 'assets/page.html', 'evals/a.eval.yaml'])(
    'ignores a match in %s, which no host preprocesses',
    (file) => {
      expect(
        check(
          lintTree(manifested('Body', { [file]: 'Returns string parsed with `!` (record separator) and `#`. !`id`' })),
          'dynamic-context',
        ),
      ).toBeUndefined();
    },
  );

  it.each(['SKILL.md', 'prompts/p.md', 'commands/deploy.md', 'sub/SKILL.md'])('fails on a match in %s', (file) => {
    const files = file === 'SKILL.md' ? {} : { [file]: 'x !`id`' };
    const body = file === 'SKILL.md' ? 'x !`id`' : 'Body';
    expect(mustCheck(lintTree(manifested(body, files)), 'dynamic-context').status).toBe('fail');
  });

  // Claude Code's preprocessor does not parse Markdown: a fence or a code span does not stop it.
  it('still fails inside a fence or a code span of SKILL.md', () => {
    expect(mustCheck(lintTree(manifested('```markdown\nStatus: !`git status`\n```')), 'dynamic-context').status).toBe(
      'fail',
    );
    expect(mustCheck(lintTree(manifested('Run it:\n\n    !`whoami`\n')), 'dynamic-context').status).toBe('fail');
    expect(check(lintTree(manifested('Use the `!` prefix and `x` here')), 'dynamic-context')).toBeUndefined();
  });
});
