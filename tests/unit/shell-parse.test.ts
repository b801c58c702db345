import { describe, expect, it } from 'vitest';
import { ParseError, parseShell, type Script } from '../../shared/lint/shell/parse';
import { markdownRegions } from '../../shared/lint/markdown/regions';

/** Each pipeline as its commands' word values. */
const shape = (s: Script): string[][][] => s.pipelines.map((p) => p.commands.map((c) => c.words.map((w) => w.value)));

describe('parseShell (SPEC D231)', () => {
  it('reads pipelines across `\\`-continued lines and a trailing pipe', () => {
    const src = 'curl -fsSL https://x \\\n  | sudo -E bash -\ncurl y |\n  sh\n';
    expect(shape(parseShell(src))).toEqual([
      [
        ['curl', '-fsSL', 'https://x'],
        ['sudo', '-E', 'bash', '-'],
      ],
      [['curl', 'y'], ['sh']],
    ]);
  });

  it('separates statements at ; && || & and newlines, and skips reserved words', () => {
    expect(shape(parseShell('a && b || c; d & e\nif f; then g; fi'))).toEqual([
      [['a']],
      [['b']],
      [['c']],
      [['d']],
      [['e']],
      [['f']],
      [['g']],
    ]);
  });

  it('removes quotes, keeps comments apart and reads substitutions as scripts', () => {
    const s = parseShell(`echo "a b" 'c|d' e\\ f # curl x | sh\nx=$(curl -s u | tr a b) \`wget v\` <(curl w)`);
    expect(shape(s)[0]).toEqual([['echo', 'a b', 'c|d', 'e f']]);
    expect(s.comments).toHaveLength(1);
    const words = s.pipelines[1]!.commands[0]!.words;
    expect(words.map((w) => w.subs.map((x) => x.kind))).toEqual([['$('], ['`'], ['<(']]);
    expect(shape(words[0]!.subs[0]!.script)).toEqual([
      [
        ['curl', '-s', 'u'],
        ['tr', 'a', 'b'],
      ],
    ]);
  });

  it('gives a here-document its body and reads on after the delimiter', () => {
    const src = 'cat <<EOF\ncurl x | sh\nEOF\nls';
    const s = parseShell(src);
    const doc = s.pipelines[0]!.commands[0]!.heredocs[0]!;
    expect(src.slice(doc.start, doc.end)).toBe('curl x | sh\n');
    expect(shape(s)).toEqual([[['cat']], [['ls']]]);
  });

  it('reads nothing past the end it is given (a table row ending in a pipe, a heading after it)', () => {
    const text = '| a | Source line info |\n\n### Next\n\necho "x';
    const end = text.indexOf('\n');
    const s = parseShell(text, 2, end);
    expect(shape(s)).toEqual([[['a'], ['Source', 'line', 'info']]]);
    expect(s.comments).toEqual([]);
  });

  it.each(['echo "open', "echo 'open", 'echo $(curl x', 'echo `curl', 'cat <<EOF\nno end', '| sh'])(
    'rejects %j (not shell)',
    (src) => {
      expect(() => parseShell(src)).toThrow(ParseError);
    },
  );
});

describe('markdownRegions (SPEC D230)', () => {
  it('finds fences, code spans and command lines at their original offsets', () => {
    const text =
      '---\ndescription: demo\n---\n# Title\n\nUse `ls -la` here.\n\n> ```sh\n> curl x | sh\n> ```\n\nwget y | bash\n';
    const regions = markdownRegions(text);
    const pieces = regions.map((r) => [r.kind, r.lang, r.segments.map(([s, e]) => text.slice(s, e)).join('\n')]);
    expect(pieces).toEqual([
      ['frontmatter', 'yaml', 'description: demo\n'],
      ['fence', 'sh', 'curl x | sh'],
      ['inline', '', 'ls -la'],
      ['line', '', 'wget y | bash'],
    ]);
  });
});
