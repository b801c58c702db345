/** The install review's pure readings (renderer/src/views/install/review-facts) and the diff line classes. */
import { describe, expect, it } from 'vitest';
import { diffLineClass } from '../../renderer/src/components/UnifiedDiff';
import {
  hotPermissions,
  reviewFindings,
  showInvisible,
  span,
  type Finding,
} from '../../renderer/src/views/install/review-facts';
import type { ReviewNodeView, ReviewView } from '../../shared/ipc/channels/install';

const at = (line: number, endLine: number) => ({ file: 'SKILL.md', line, column: 3, endLine, endColumn: 9 });
const finding = (id: string, detail: string, locations = [at(4, 4)]): Finding => ({
  id,
  status: 'fail',
  detail,
  locations,
});

/** Only the fields the readings use; the rest of a node does not matter to them. */
function node(name: string, over: Partial<ReviewNodeView>): ReviewNodeView {
  return { name, permissions: [], lint: [], safety: [], policy: [], ...over } as unknown as ReviewNodeView;
}
const review = (...nodes: ReviewNodeView[]) => ({ nodes }) as unknown as ReviewView;

describe('span', () => {
  it('names the first place of a finding, the end line only when it differs', () => {
    expect(span(finding('x', 'd', [at(4, 4), at(9, 9)]))).toBe('SKILL.md:4:3–9');
    expect(span(finding('x', 'd', [at(4, 6)]))).toBe('SKILL.md:4:3–6:9');
    expect(span(finding('x', 'd', []))).toBeNull();
  });
});

describe('hotPermissions', () => {
  it('lists the declared network and write permissions of every skill, nothing else', () => {
    const r = review(
      node('a', {
        permissions: [
          { permission: 'network', declared: true },
          { permission: 'write', declared: false },
          { permission: 'tool:Bash', declared: true },
        ],
      }),
      node('b', { permissions: [{ permission: 'write', declared: true }] }),
    );
    expect(hotPermissions(r)).toEqual(['a: network', 'b: write']);
  });
});

describe('reviewFindings', () => {
  it('keeps a lint finding that repeats a safety finding only with the blocking ones', () => {
    const secret = finding('secrets', 'an API key');
    const r = review(
      node('a', { safety: [secret], lint: [secret, finding('secrets', 'another key'), finding('style', 'long')] }),
      node('b', { policy: ['network is not allowed'] }),
    );
    const f = reviewFindings(r);
    expect(f.safety.map((x) => [x.node, x.f.detail])).toEqual([['a', 'an API key']]);
    expect(f.lint.map((x) => [x.node, x.f.detail])).toEqual([
      ['a', 'another key'],
      ['a', 'long'],
    ]);
    expect(f.policy).toEqual([{ node: 'b', p: 'network is not allowed' }]);
  });
});

describe('showInvisible', () => {
  it('turns characters a reader cannot see into visible markers and counts them', () => {
    expect(showInvisible('plain text')).toEqual({ text: 'plain text', hidden: 0 });
    expect(showInvisible('a\u200bb\u202ec')).toEqual({ text: 'a⟦U+200B⟧b⟦U+202E⟧c', hidden: 2 });
    // A tag character is a surrogate pair: one marker with its full code point.
    expect(showInvisible('x\udb40\udc41')).toEqual({ text: 'x⟦U+E0041⟧', hidden: 1 });
  });
});

describe('diffLineClass', () => {
  it('marks added and deleted lines and hunk headers, not the file headers', () => {
    expect(['+a', '-b', '@@ -1 +1 @@', ' c', '+++ b/x', '--- a/x'].map(diffLineClass)).toEqual([
      'diff-add',
      'diff-del',
      'diff-hunk',
      '',
      '',
      '',
    ]);
  });
});
