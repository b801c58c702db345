/** Small pure pieces of the runs panel. */
import { describe, expect, it } from 'vitest';
import { splitArgs } from '../../renderer/src/views/runs/RunsView';

describe('splitArgs', () => {
  it('splits on whitespace and keeps quoted spaces', () => {
    expect(splitArgs('')).toEqual([]);
    expect(splitArgs('  a  b ')).toEqual(['a', 'b']);
    expect(splitArgs(`--name "two words" 'x y' z`)).toEqual(['--name', 'two words', 'x y', 'z']);
    expect(splitArgs('""')).toEqual(['']);
  });
});
