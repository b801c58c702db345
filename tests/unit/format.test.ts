import { describe, expect, it } from 'vitest';
import { formatBytes, plural } from '../../shared/text/format';

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
