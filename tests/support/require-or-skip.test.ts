import { afterEach, describe, expect, it } from 'vitest';
import { requireOrSkip } from './paths';

/** The gate every suite that needs something outside the repository goes through. */
describe('requireOrSkip', () => {
  const saved = process.env.SKILLSMITH_REQUIRE_ALL;
  afterEach(() => {
    if (saved === undefined) delete process.env.SKILLSMITH_REQUIRE_ALL;
    else process.env.SKILLSMITH_REQUIRE_ALL = saved;
  });

  it('lets a suite run when the thing is there', () => {
    process.env.SKILLSMITH_REQUIRE_ALL = '1';
    expect(requireOrSkip('git', true)).toBe(true);
  });

  it('asks to skip when it is missing and nothing requires it', () => {
    delete process.env.SKILLSMITH_REQUIRE_ALL;
    expect(requireOrSkip('chromium', false)).toBe(false);
  });

  it('fails, naming what is missing, under SKILLSMITH_REQUIRE_ALL', () => {
    process.env.SKILLSMITH_REQUIRE_ALL = '1';
    expect(() => requireOrSkip('../shared/corpus', false)).toThrow(
      /\.\.\/shared\/corpus is not available.*SKILLSMITH_REQUIRE_ALL/,
    );
  });
});
