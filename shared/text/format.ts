/** `1 skill`, `3 skills`: a count with its noun, made plural by an `s`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A size in binary units: whole when exact (`8 MiB`, the limits people set), one decimal
 * otherwise (`1.5 KiB`), plain bytes below 1 KiB.
 */
export function formatBytes(n: number): string {
  const [size, unit] = n >= 1024 * 1024 ? [1024 * 1024, 'MiB'] : n >= 1024 ? [1024, 'KiB'] : [1, ''];
  if (!unit) return plural(n, 'byte');
  const v = n / size;
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${unit}`;
}

/** The text with a final newline, added only when missing (generated files always end in one). */
export function withNewline(s: string): string {
  return s.endsWith('\n') ? s : `${s}\n`;
}
