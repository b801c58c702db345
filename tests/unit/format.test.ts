import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, plural } from '../../shared/text/format';

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [512 * 1024, '512 KiB'],
    [8 * 1024 * 1024, '8 MiB'],
    [50 * 1024 * 1024, '50 MiB'],
    [Math.round(2.25 * 1024 * 1024), '2.3 MiB'],
  ])('%i → %s', (n, s) => {
    expect(formatBytes(n)).toBe(s);
  });
});

describe('plural', () => {
  it.each([
    [0, '0 skills'],
    [1, '1 skill'],
    [2, '2 skills'],
  ])('%i → %s', (n, s) => {
    expect(plural(n, 'skill')).toBe(s);
  });
});

describe('formatCount', () => {
  it('writes every count as en-US does', () => {
    const samples = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10_000, 12_345, 99_999, 100_000, 999_999];
    samples.push(1_000_000, 1_234_567, 12_345_678, 123_456_789, Number.MAX_SAFE_INTEGER);
    for (let n = 1; n < 1e15; n = n * 7 + 3) samples.push(n);
    for (const n of [...samples, ...samples.map((x) => -x).filter((x) => x !== 0)])
      expect(formatCount(n), String(n)).toBe(n.toLocaleString('en-US'));
  });
  it('leaves fractions and huge numbers to Intl', () => {
    expect(formatCount(1234.5)).toBe('1,234.5');
    expect(formatCount(2 ** 60)).toBe((2 ** 60).toLocaleString('en-US'));
  });
});
