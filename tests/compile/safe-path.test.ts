import { expect, it } from 'vitest';
import { isSafeRelative } from '../../shared/compile/plan';
it('safe', () => {
  for (const [p, ok] of [
    ['a/b', true],
    ['.claude/skills/x/SKILL.md', true],
    ['a/../b', false],
    ['../a', false],
    ['./a', false],
    ['a/.', false],
    ['a//b', false],
    ['/a', false],
    ['', false],
    ['a\\b', false],
    ['..a/b', true],
    ['a/..b', true],
    ['a/.b', true],
    ['a/', false],
  ] as const)
    expect(isSafeRelative(p), p).toBe(ok);
});
