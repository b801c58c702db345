/** `1 skill`, `3 skills`: a count with its noun, made plural by an `s` unless `many` says otherwise. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * A count as en-US writes it, a comma between each group of three digits (`1,234`). Whole
 * numbers are grouped here rather than by `toLocaleString('en-US')`: in a page, the first
 * call starts Intl (tens of ms) and each call builds a formatter (about 30 µs), and a
 * dashboard of 200 skills formats a thousand counts in its first render.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
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

/** One word for a POSIX shell: as is when it holds nothing the shell reads, else single-quoted. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/** True when `src` has a `//` or `/*` outside string literals (JSON.parse would drop those comments). */
export function hasJsonComment(src: string): boolean {
  let inString = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '/' && (src[i + 1] === '/' || src[i + 1] === '*')) return true;
  }
  return false;
}
