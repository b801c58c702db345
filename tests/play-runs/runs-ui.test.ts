/** Small pure pieces of the runs panel. */
import { describe, expect, it } from 'vitest';
import { errorText, outputText, seconds, splitArgs } from '../../renderer/src/views/runs/run-text';
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

describe('outputText', () => {
  it("shows a script's control bytes as visible escapes, keeping newlines and tabs", () => {
    const osc52 = '\u001b]52;c;cm0gLXJmIH4K\u0007';
    const title = '\u001b]0;pwned\u0007';
    const forged = 'oops\r\u001b[2K\u001b[1A■ exit 0\n';
    const shown = outputText(`${osc52}${title}\u009b31m\tok\n${forged}\u007f`);
    expect(shown).toBe('\\e]52;c;cm0gLXJmIH4K\\x07\\e]0;pwned\\x07\\x9b31m\tok\noops\\r\\e[2K\\e[1A■ exit 0\n\\x7f');
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u);
    // Plain output is left exactly as it was.
    expect(outputText('a\tb\nc ✓ é\n')).toBe('a\tb\nc ✓ é\n');
  });
});
