import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../shared/ksf/tokens';

describe('estimateTokens (SPEC §7.3: ceil(UTF-16 length / 4))', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['abc', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['abcdefgh', 2],
    ['abcdefghi', 3],
  ])('%j → %i', (text, n) => {
    expect(estimateTokens(text)).toBe(n);
  });

  it('counts é (one UTF-16 unit) as one unit', () => {
    expect('é'.length).toBe(1);
    expect(estimateTokens('é')).toBe(1);
    expect(estimateTokens('éééé')).toBe(1);
    expect(estimateTokens('ééééé')).toBe(2);
  });

  it('counts a decomposed é (e + U+0301) as two units', () => {
    expect(estimateTokens('e\u0301e\u0301e\u0301')).toBe(2);
  });

  it('counts an astral character (a surrogate pair) as two units', () => {
    const emoji = '\u{1F600}';
    expect(emoji.length).toBe(2);
    expect(estimateTokens(emoji)).toBe(1);
    expect(estimateTokens(emoji.repeat(2))).toBe(1);
    expect(estimateTokens(emoji.repeat(3))).toBe(2);
    expect(estimateTokens(`abc${emoji}`)).toBe(2);
  });

  it('is linear in length for long text', () => {
    expect(estimateTokens('x'.repeat(4000))).toBe(1000);
    expect(estimateTokens('x'.repeat(4001))).toBe(1001);
  });
});
