import { describe, expect, it } from 'vitest';
import { loadSkill } from '../../shared/ksf/load';
import { linksCheck } from '../../shared/lint/links';
import { Spans } from '../../shared/lint/spans';
import { tree } from './helpers';

function check(md: string, files: Record<string, string> = {}) {
  const r = loadSkill(tree('skills/linky', { 'SKILL.md': md, ...files }));
  if (!r.ok) throw new Error(r.error.message);
  return linksCheck(r.value, new Spans());
}

describe('links: relative links to files the skill folder does not hold (SPEC §9.1)', () => {
  it('warns with file and line for each missing target; present files, folders and anchors pass', () => {
    const md =
      '---\nname: linky\ndescription: d\n---\n# L\n\nSee [forms](FORMS.md) and [ref](references/api.md#auth).\n\n![logo](assets/logo%20big.png) and [dir](scripts/)\n';
    const c = check(md, { 'FORMS.md': 'x', 'scripts/run.sh': 'x' })!;
    expect(c.status).toBe('warn');
    expect(c.detail).toBe(
      'links to files not in the skill folder: references/api.md#auth (SKILL.md:7), assets/logo%20big.png (SKILL.md:9)',
    );
    expect(c.locations![0]).toMatchObject({ file: 'SKILL.md', line: 7 });
  });

  it('ignores URLs, anchors, absolute paths and links inside code; resolves prompts relative to their folder', () => {
    const md =
      '# L\n\n[web](https://x.y) [top](#top) [abs](/etc/passwd)\n\n```md\n[gone](gone.md)\n```\n\n`[gone](gone.md)`\n\n[ok](prompts/p.md)\n';
    expect(check(md, { 'prompts/p.md': 'Back to [skill](../SKILL.md); [missing](../nope.md).\n' })).toMatchObject({
      status: 'warn',
      detail: 'links to a file not in the skill folder: ../nope.md (prompts/p.md:1)',
    });
    expect(check('# L\n\n[ok](prompts/p.md)\n', { 'prompts/p.md': 'x' })).toMatchObject({ status: 'pass' });
  });

  it('a skill without relative links gets no links check at all', () => {
    expect(check('# L\n\nNo links, only https://example.com.\n')).toBeUndefined();
  });
});
