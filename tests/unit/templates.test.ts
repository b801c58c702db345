import { describe, expect, it } from 'vitest';
import { resolveTemplates, type PromptLookup } from '../../shared/ksf/templates';
import { lintTree, manifested, mustCheck, symlink, tree, utf8 } from './helpers';

const noPrompts = (name: string): PromptLookup => ({ kind: 'missing', path: `/skill/prompts/${name}.md` });
const prompts =
  (files: Record<string, string>) =>
  (name: string): PromptLookup =>
    name in files ? { kind: 'text', text: files[name]! } : { kind: 'missing', path: `/skill/prompts/${name}.md` };

function resolved(body: string, lookup: (n: string) => PromptLookup = noPrompts): string {
  const r = resolveTemplates(body, 'demo', lookup);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.text;
}

function failure(
  body: string,
  lookup: (n: string) => PromptLookup = noPrompts,
): { message: string; offset?: number; length?: number } {
  const r = resolveTemplates(body, 'demo', lookup);
  if (r.ok) throw new Error(`expected a resolution error, got: ${r.value.text}`);
  return r.error;
}

describe('resolveTemplates: the three namespaces (SPEC §7.4)', () => {
  it('leaves text without variables untouched', () => {
    expect(resolved('plain text, { single } braces')).toBe('plain text, { single } braces');
  });

  it('{{artifact.<n>}} becomes a code span path', () => {
    expect(resolved('Write {{artifact.plan}} now.')).toBe('Write `.kitbash/artifacts/plan.json` now.');
  });

  it('{{lore.<n>}} becomes the project-knowledge sentence', () => {
    expect(resolved('Read {{lore.decisions}}.')).toBe(
      'Read the project knowledge under `.kitbash/lore/decisions/` (skip silently if absent).',
    );
  });

  it('{{prompt.<n>}} inlines the prompt text, trimmed', () => {
    expect(resolved('A\n{{prompt.check-list}}\nB', prompts({ 'check-list': '\n\n  1. step\n\n' }))).toBe(
      'A\n1. step\nB',
    );
  });

  it('allows whitespace inside the braces and digits and - in the name', () => {
    expect(resolved('{{  artifact.plan-2  }}|{{\tlore.map\n}}')).toBe(
      '`.kitbash/artifacts/plan-2.json`|the project knowledge under `.kitbash/lore/map/` (skip silently if absent)',
    );
  });

  it('replaces every occurrence', () => {
    expect(resolved('{{artifact.a}} {{artifact.a}} {{artifact.b}}')).toBe(
      '`.kitbash/artifacts/a.json` `.kitbash/artifacts/a.json` `.kitbash/artifacts/b.json`',
    );
  });

  it('is textual: no declaration is consulted', () => {
    expect(resolved('{{artifact.undeclared}}')).toContain('undeclared.json');
  });

  it('treats $ sequences in inlined text literally', () => {
    const text = "cost: $& $1 $$ $' $` $<name>";
    expect(resolved('[{{prompt.money}}]', prompts({ money: text }))).toBe(`[${text}]`);
  });

  it('treats a {{ without a closing }} as plain text', () => {
    expect(resolved('an {{ unclosed brace')).toBe('an {{ unclosed brace');
  });
});

describe('resolveTemplates: errors (SPEC §7.4)', () => {
  it('unknown namespace', () => {
    const f = failure('x {{config.thing}} y');
    expect(f.message).toBe('demo: unknown template variable {{config.thing}}');
    expect(f.offset).toBe(2);
    expect(f.length).toBe('{{config.thing}}'.length);
  });

  it('"prompts" (plural) is not a namespace', () => {
    expect(failure('{{prompts.x}}').message).toBe('demo: unknown template variable {{prompts.x}}');
  });

  it('stops at the first error', () => {
    expect(failure('{{nope.a}} {{also.b}}').message).toBe('demo: unknown template variable {{nope.a}}');
  });

  it('missing prompt names the path', () => {
    const f = failure('see {{prompt.absent}}');
    expect(f.message).toBe('demo: template references missing /skill/prompts/absent.md');
    expect(f.offset).toBe(4);
  });

  it('an unreadable prompt names the path and why', () => {
    const f = failure('{{prompt.x}}', () => ({
      kind: 'unreadable',
      path: '/skill/prompts/x.md',
      why: 'is a symlink — not followed',
    }));
    expect(f.message).toContain('/skill/prompts/x.md');
    expect(f.message).toContain('symlink');
    expect(f.message.startsWith('demo: ')).toBe(true);
  });

  it.each([
    ['spaces around the dot', '{{ lore . x }}'],
    ['an underscore', '{{artifact.my_plan}}'],
    ['capitals', '{{Artifact.plan}}'],
    ['a digit in the namespace', '{{lore2.x}}'],
    ['no dot', '{{plan}}'],
    ['empty', '{{}}'],
  ])('leftover: %s', (_what, text) => {
    const f = failure(`before ${text} after`);
    expect(f.message).toMatch(/^demo: unresolved template variable "/);
    expect(f.message).toContain(`"${text.trim()}"`);
    expect(f.message).toContain('unknown namespace or malformed');
    expect(f.offset).toBe('before '.length);
  });

  it('a variable inside inlined prompt text is not resolved again: it is a leftover', () => {
    const f = failure('{{prompt.outer}}', prompts({ outer: 'Use {{lore.map}} here.' }));
    expect(f.message).toMatch(/^demo: unresolved template variable "\{\{lore\.map\}\}"/);
    expect(f.offset).toBeUndefined();
  });
});

describe('templates inside lintSkill: prompt lookup in the tree', () => {
  it('inlines prompts/<n>.md, removing its BOM', () => {
    const checks = lintTree(manifested('{{prompt.a}}', { 'prompts/a.md': '\uFEFFInlined.' }));
    expect(mustCheck(checks, 'references').status).toBe('pass');
    expect(mustCheck(checks, 'visible-text').status).toBe('pass');
  });

  it('a missing prompt fails references, naming the skill and the prompt file', () => {
    const c = mustCheck(lintTree(manifested('{{prompt.absent}}')), 'references');
    expect(c.status).toBe('fail');
    expect(c.detail).toMatch(/^demo: template references missing .*prompts\/absent\.md$/);
  });

  it('a prompts/<n>.md directory counts as missing', () => {
    const c = mustCheck(lintTree(manifested('{{prompt.d}}', { 'prompts/d.md/x': 'y' })), 'references');
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('missing');
  });

  it('a symlinked prompt is not read and fails references (D19)', () => {
    const c = mustCheck(
      lintTree(manifested('{{prompt.link}}', { 'prompts/link.md': symlink('/etc/passwd') })),
      'references',
    );
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('prompts/link.md');
    expect(c.detail).toMatch(/symlink/);
    expect(c.detail).not.toContain('root:');
  });

  it('a non-UTF-8 prompt fails references with the byte offset', () => {
    const c = mustCheck(
      lintTree(manifested('{{prompt.bad}}', { 'prompts/bad.md': new Uint8Array([0x61, 0xff]) })),
      'references',
    );
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('prompts/bad.md');
    expect(c.detail).toMatch(/UTF-8/);
    expect(c.detail).toMatch(/\b1\b/);
  });

  it('a prompt containing a variable is a leftover failure', () => {
    const c = mustCheck(
      lintTree(manifested('{{prompt.p}}', { 'prompts/p.md': 'see {{artifact.plan}}' })),
      'references',
    );
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('unresolved template variable "{{artifact.plan}}"');
  });

  it('the references failure is located in SKILL.md (1-based, after frontmatter)', () => {
    const md = '---\nname: x\n---\nLine one.\nUse {{nope.x}} here.\n';
    const c = mustCheck(lintTree(manifested(md)), 'references');
    expect(c.locations).toEqual([
      { file: 'SKILL.md', line: 5, column: 5, endLine: 5, endColumn: 5 + '{{nope.x}}'.length },
    ]);
  });

  it('resolves against a bare skill too', () => {
    const checks = lintTree(tree('skills/bare', { 'SKILL.md': 'Read {{prompt.p}}', 'prompts/p.md': utf8('ok') }));
    expect(mustCheck(checks, 'references').status).toBe('pass');
  });
});
