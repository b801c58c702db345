import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../shared/ksf/frontmatter';

describe('splitFrontmatter: recognising the block (SPEC §4.1)', () => {
  it('splits a leading --- block off and keeps the rest untouched', () => {
    const r = splitFrontmatter('---\nname: demo\n---\n# Body\n', false);
    expect(r.frontmatter?.raw).toBe('---\nname: demo\n---\n');
    expect(r.rest).toBe('# Body\n');
  });

  it('does not parse the data when not asked to (manifested skills)', () => {
    const r = splitFrontmatter('---\nname: demo\n---\nbody', false);
    expect(r.frontmatter?.data).toEqual({});
    expect(r.frontmatter?.yamlError).toBeUndefined();
  });

  it('accepts CRLF line ends in the delimiters', () => {
    const r = splitFrontmatter('---\r\nname: crlf\r\n---\r\nbody', true);
    expect(r.frontmatter?.raw).toBe('---\r\nname: crlf\r\n---\r\n');
    expect(r.frontmatter?.data).toEqual({ name: 'crlf' });
    expect(r.rest).toBe('body');
  });

  it('accepts a closing --- at the very end of the file', () => {
    const r = splitFrontmatter('---\nname: x\n---', true);
    expect(r.frontmatter?.data.name).toBe('x');
    expect(r.rest).toBe('');
  });

  it('is not frontmatter when the first line is not ---', () => {
    const text = '# Title\n---\nname: x\n---\n';
    const r = splitFrontmatter(text, true);
    expect(r.frontmatter).toBeUndefined();
    expect(r.rest).toBe(text);
  });

  it('is not frontmatter when there is no closing ---', () => {
    const text = '---\nname: x\nbody without a close\n';
    const r = splitFrontmatter(text, true);
    expect(r.frontmatter).toBeUndefined();
    expect(r.rest).toBe(text);
  });

  it('is not frontmatter when something precedes the opening ---', () => {
    const text = ' ---\nname: x\n---\nbody';
    expect(splitFrontmatter(text, true).frontmatter).toBeUndefined();
  });

  it('ends at the first closing ---', () => {
    const r = splitFrontmatter('---\na: 1\n---\nmiddle\n---\nlast', true);
    expect(r.rest).toBe('middle\n---\nlast');
  });
});

describe('splitFrontmatter: YAML reading (SPEC §4.3, D16)', () => {
  it('reads string values with lower-cased keys', () => {
    const r = splitFrontmatter('---\nName: demo\nDESCRIPTION: Says hello.\n---\n', true);
    expect(r.frontmatter?.data).toEqual({ name: 'demo', description: 'Says hello.' });
    expect(r.frontmatter?.yamlError).toBeUndefined();
  });

  it('applies YAML escapes in double-quoted values', () => {
    const r = splitFrontmatter('---\ndescription: "Tab\\there \\u00e9"\n---\n', true);
    expect(r.frontmatter?.data.description).toBe('Tab\there é');
  });

  it('reads single-quoted values with the doubled-quote escape', () => {
    const r = splitFrontmatter("---\ndescription: 'it''s fine'\n---\n", true);
    expect(r.frontmatter?.data.description).toBe("it's fine");
  });

  it('reads block scalars', () => {
    const r = splitFrontmatter('---\ndescription: |\n  line one\n  line two\nname: demo\n---\n', true);
    expect(r.frontmatter?.data.description).toBe('line one\nline two\n');
    expect(r.frontmatter?.data.name).toBe('demo');
  });

  it('reads folded multi-line plain values as YAML does', () => {
    const r = splitFrontmatter('---\ndescription: first\n  second\n---\n', true);
    expect(r.frontmatter?.data.description).toBe('first second');
  });

  it('ignores null values and nested mappings/sequences', () => {
    const r = splitFrontmatter('---\nname: demo\nempty:\nmeta:\n  a: 1\ntags:\n  - x\n---\n', true);
    expect(r.frontmatter?.data).toEqual({ name: 'demo' });
    expect(r.frontmatter?.yamlError).toBeUndefined();
  });

  it('accepts an empty YAML document between the delimiters', () => {
    const r = splitFrontmatter('---\n# only a comment\n---\nbody', true);
    expect(r.frontmatter?.data).toEqual({});
    expect(r.frontmatter?.yamlError).toBeUndefined();
  });
});

describe('splitFrontmatter: line fallback when the block is not YAML', () => {
  it('falls back to key: value lines and records yamlError (nested compact mapping)', () => {
    const r = splitFrontmatter('---\nname: a: b\n---\nbody', true);
    expect(r.frontmatter?.yamlError).toBeTruthy();
    expect(r.frontmatter?.data.name).toBe('a: b');
    expect(r.rest).toBe('body');
  });

  it('falls back on an unterminated quote, removing the surrounding quote characters', () => {
    const r = splitFrontmatter("---\ndescription: \"unterminated\nname: 'demo'\n---\n", true);
    expect(r.frontmatter?.yamlError).toMatch(/quote/i);
    expect(r.frontmatter?.data).toEqual({ description: 'unterminated', name: 'demo' });
  });

  it('falls back on a duplicate key (the last line wins)', () => {
    const r = splitFrontmatter('---\nname: first\nname: second\n---\n', true);
    expect(r.frontmatter?.yamlError).toBeTruthy();
    expect(r.frontmatter?.data.name).toBe('second');
  });

  it('falls back on tab indentation', () => {
    const r = splitFrontmatter('---\nname: x\n\tdescription: y\n---\n', true);
    expect(r.frontmatter?.yamlError).toMatch(/tab/i);
    expect(r.frontmatter?.data.name).toBe('x');
  });

  it('says so when the YAML is valid but not a mapping', () => {
    const r = splitFrontmatter('---\n- a\n- b\n---\nbody', true);
    expect(r.frontmatter?.yamlError).toBe('it is not a mapping');
    expect(r.frontmatter?.data).toEqual({});
  });

  it('lower-cases keys and trims values in the fallback', () => {
    const r = splitFrontmatter('---\nNAME:   demo   \nbad: x: y\n---\n', true);
    expect(r.frontmatter?.data.name).toBe('demo');
  });
});

describe('splitFrontmatter: plain key: value lines read exactly as YAML reads them', () => {
  it.each([
    ['name: demo-skill', { name: 'demo-skill' }],
    ['name:\tTabbed value', { name: 'Tabbed value' }],
    ['description: Uses a\\b and a=b; fine.', { description: 'Uses a\\b and a=b; fine.' }],
    ['description: Two  spaces kept', { description: 'Two  spaces kept' }],
    ['description: trailing spaces   ', { description: 'trailing spaces' }],
    ['description: yes', { description: 'yes' }],
    ['description: no', { description: 'no' }],
    ['description: Off', { description: 'Off' }],
    ['description: null', {}],
    ['description: ~', {}],
    ['description: a # comment', { description: 'a' }],
    ["description: 'quoted: colon'", { description: 'quoted: colon' }],
    ['description: "x" ', { description: 'x' }],
  ])('%j', (line, data) => {
    const r = splitFrontmatter(`---\n${line}\n---\nbody`, true);
    expect(r.frontmatter?.data).toEqual(data);
    expect(r.frontmatter?.yamlError).toBeUndefined();
  });
});
