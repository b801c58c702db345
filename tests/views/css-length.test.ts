/**
 * Renderer stylesheets are held to the renderer's 400 lines, as ESLint holds its TS/TSX
 * (`max-lines` in eslint.config.mjs): ESLint does not read CSS, so this test does.
 */
import { describe, expect, it } from 'vitest';
import { readRenderer, rendererFiles } from './renderer-sources';

const MAX_LINES = 400;

/** Lines as ESLint's `max-lines` counts them: every line, blank or comment, a final newline ending the last. */
export const lineCount = (text: string): number => (text === '' ? 0 : text.replace(/\r?\n$/, '').split(/\r?\n/).length);

/** Each sheet over the limit, named with its length. */
export function overLimit(sheets: readonly { file: string; text: string }[], max = MAX_LINES): string[] {
  return sheets.flatMap(({ file, text }) => {
    const n = lineCount(text);
    return n > max ? [`${file}: ${n} lines (at most ${max})`] : [];
  });
}

describe('renderer CSS length', () => {
  const files = rendererFiles(/\.css$/);

  it('reads the renderer’s stylesheets', () => {
    expect(files.length).toBeGreaterThan(8);
  });

  it(`keeps every renderer/src/**/*.css to ${MAX_LINES} lines`, () => {
    expect(overLimit(files.map((file) => ({ file, text: readRenderer(file) })))).toEqual([]);
  });

  it('counts lines as ESLint does, and names a sheet one line over', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\n\nb')).toBe(3);
    const at = (n: number) => '.x {}\n'.repeat(n);
    expect(overLimit([{ file: 'ok.css', text: at(MAX_LINES) }])).toEqual([]);
    expect(overLimit([{ file: 'big.css', text: at(MAX_LINES + 1) }])).toEqual([
      `big.css: ${MAX_LINES + 1} lines (at most ${MAX_LINES})`,
    ]);
  });
});
