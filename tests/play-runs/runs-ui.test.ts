/** Small pure pieces of the runs panel. */
import { describe, expect, it } from 'vitest';
import { errorText, seconds, splitArgs } from '../../renderer/src/views/runs/run-text';
import { IpcError } from '../../shared/ipc/errors';

describe('splitArgs', () => {
  it('splits on whitespace and keeps quoted spaces', () => {
    expect(splitArgs('')).toEqual([]);
    expect(splitArgs('  a  b ')).toEqual(['a', 'b']);
    expect(splitArgs(`--name "two words" 'x y' z`)).toEqual(['--name', 'two words', 'x y', 'z']);
    expect(splitArgs('""')).toEqual(['']);
  });
});

describe('errorText and seconds', () => {
  it('names where an error came from, with the contract code when there is one', () => {
    expect(errorText(new Error('no such skill'), 'runs.plan')).toBe('no such skill (runs.plan)');
    expect(errorText(new IpcError({ code: 'not-found', message: 'gone' }), 'runs.start')).toBe(
      'gone (runs.start, not-found)',
    );
    expect(errorText('plain', 'runs.history')).toBe('plain (runs.history)');
  });

  it('words a duration in ms under a second, else seconds', () => {
    expect(seconds(0)).toBe('0 ms');
    expect(seconds(999.4)).toBe('999 ms');
    expect(seconds(1234)).toBe('1.23 s');
    expect(seconds(12_345)).toBe('12.3 s');
  });
});
