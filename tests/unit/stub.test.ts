import { describe, expect, it } from 'vitest';
import { standingStub } from '../../shared/ksf/stub';

describe('standingStub (SPEC §7.2)', () => {
  it('takes the first paragraph', () => {
    expect(standingStub('First paragraph.\n\nSecond paragraph.')).toBe('First paragraph.');
  });

  it('drops ATX headings, so a title never stands in for the description', () => {
    expect(standingStub('# Title\n\nThe description.\n\nMore.')).toBe('The description.');
  });

  it('drops a heading line inside the stub block and keeps the rest of the block', () => {
    expect(standingStub('# Title\nInline description.\nSecond line.\n\nMore.')).toBe(
      'Inline description.\nSecond line.',
    );
  });

  it('drops headings of every level from one to six', () => {
    const body = ['# h1', '## h2', '### h3', '#### h4', '##### h5', '###### h6', '', 'text'].join('\n');
    expect(standingStub(body)).toBe('text');
  });

  it('drops a heading whose separator is a tab', () => {
    expect(standingStub('#\tTabbed\n\nbody')).toBe('body');
  });

  it('keeps #NoSpace (not a heading)', () => {
    expect(standingStub('#NoSpace\n\nbody')).toBe('#NoSpace');
  });

  it('keeps seven #s (not a heading)', () => {
    expect(standingStub('####### seven\n\nbody')).toBe('####### seven');
  });

  it('keeps a bare # (no following whitespace)', () => {
    expect(standingStub('#\n\nbody')).toBe('#');
  });

  it('drops an indented heading (the line is trimmed first)', () => {
    expect(standingStub('  ## Indented\n\nbody')).toBe('body');
    expect(standingStub('\t# Tab-indented\nreal text')).toBe('real text');
  });

  it('skips blocks that hold only headings and blank lines', () => {
    expect(standingStub('# A\n\n## B\n\n### C\n\nfinally')).toBe('finally');
  });

  it('treats a whitespace-only line as a block separator', () => {
    expect(standingStub('one\n   \ntwo')).toBe('one');
    expect(standingStub('one\n\t\ntwo')).toBe('one');
  });

  it('handles CRLF line ends: blocks split and lines joined with LF', () => {
    expect(standingStub('# Title\r\n\r\nLine one.\r\nLine two.\r\n\r\nNext block.\r\n')).toBe('Line one.\nLine two.');
  });

  it('handles a CRLF heading line followed directly by text', () => {
    expect(standingStub('# Title\r\nDescription.\r\n')).toBe('Description.');
  });

  it('does not skip code fences: a leading fence becomes the stub', () => {
    expect(standingStub('```sh\nnpm test\n```\n\nProse.')).toBe('```sh\nnpm test\n```');
  });

  it('does not skip HTML comments: a leading comment becomes the stub', () => {
    expect(standingStub('<!-- generated -->\n\nProse.')).toBe('<!-- generated -->');
  });

  it('keeps inner indentation and trims the ends', () => {
    expect(standingStub('  first\n    indented\n\nnext')).toBe('first\n    indented');
  });

  it('is empty when nothing but headings is present', () => {
    expect(standingStub('# Only\n\n## Headings\n')).toBe('');
  });

  it('is empty for an empty or blank body', () => {
    expect(standingStub('')).toBe('');
    expect(standingStub('\n\n   \n')).toBe('');
  });

  it('gives the same answer when called repeatedly (no leaked regex state)', () => {
    const body = '# T\n\nA.\n\nB.';
    expect(standingStub(body)).toBe('A.');
    expect(standingStub(body)).toBe('A.');
    expect(standingStub('X.\n\nY.')).toBe('X.');
  });
});
