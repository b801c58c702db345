/** Runs of characters outside ASCII: a surrogate pair is never split between two runs. */
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;

/**
 * UTF-8 length of a string without TextEncoder (shared/ has no DOM or Node types). An ASCII
 * character is one byte and one code unit, so only the runs outside ASCII are counted one by
 * one: the merged AGENTS.md of a large project is megabytes of mostly ASCII, measured on
 * every plan, and the regular expression skips the ASCII far faster than a loop in script.
 */
export function utf8Length(s: string): number {
  let n = s.length;
  NON_ASCII_RUN.lastIndex = 0;
  for (let m = NON_ASCII_RUN.exec(s); m; m = NON_ASCII_RUN.exec(s)) n += utf8LengthEach(m[0]) - m[0].length;
  return n;
}

/** UTF-8 length, code unit by code unit; a lone surrogate counts as U+FFFD (3 bytes), as encoders write it. */
function utf8LengthEach(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
