import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { splitFrontmatter } from '../../shared/ksf/frontmatter';

/** A full YAML reading with every scalar as the text written (the failsafe schema), keys lower-cased. */
function viaYaml(inner: string): Record<string, string> {
  const doc = (parse(inner, { schema: 'failsafe' }) ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(doc)) if (v !== null && typeof v !== 'object') out[k.toLowerCase()] = String(v);
  return out;
}

const CASES = [
  'name: tidy-commits\ndescription: Keep commits small and focused',
  'name: a\ndescription: Uses a hyphen - and dots. Also (parens)',
  'description: trailing spaces   \nname: x-y',
  'name: yes-man\ndescription: no',
  'name: deploy\ndescription: true',
  'name: q\ndescription: "quoted: with colon"',
  "name: q\ndescription: 'single # not a comment'",
  'name: q\ndescription: value # a comment',
  'name: q\ndescription: >\n  folded\n  text',
  'name: q\ndescription: first line\n  continued here',
  'Name: Upper\ndescription: key case folds',
  'name: a\n\ndescription: blank line between',
  'name: 0x10\ndescription: retyped number',
  'name: q\ndescription: "Trace the API: when the diff is > 400 lines # not a comment"',
  "name: q\ndescription: 'it''s doubled'",
  'name: q\ndescription: "with \\"escapes\\" and \\u00e9"',
  "name: q\ndescription: ''",
];

describe('frontmatter fast path', () => {
  it.each(CASES)('reads %j as YAML reads the text written', (inner) => {
    const { frontmatter } = splitFrontmatter(`---\n${inner}\n---\nbody\n`, true);
    expect(frontmatter?.yamlError).toBeUndefined();
    expect(frontmatter?.data).toEqual(viaYaml(inner));
  });
});
