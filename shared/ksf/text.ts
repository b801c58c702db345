/** Text decoding and position helpers shared by the loader and every scanner. */

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export const BOM = '\uFEFF';

export type Decoded =
  | { ok: true; text: string; bom: boolean }
  | { ok: false; byteOffset: number };

/** Strict UTF-8; one leading BOM is removed and reported as `bom`. */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { ok: false, byteOffset: firstInvalidUtf8Offset(bytes) };
  }
  return text.startsWith(BOM) ? { ok: true, text: text.slice(1), bom: true } : { ok: true, text, bom: false };
}

/** Lenient UTF-8 for scanning files that are not required to be UTF-8 (invalid bytes → U+FFFD). */
export function decodeLenient(bytes: Uint8Array): { text: string; bom: boolean } {
  const text = lenientUtf8.decode(bytes);
  return text.startsWith(BOM) ? { text: text.slice(1), bom: true } : { text, bom: false };
}

/** Offset of the first ill-formed sequence, by the well-formed byte table of RFC 3629. */
function firstInvalidUtf8Offset(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    // Allowed range of the second byte for each lead byte; later bytes are 80–BF.
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= b.length) return i;
    const second = b[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return i;
}

/**
 * The one binary-file rule used by lint and install alike: more than 10% control bytes
 * (below 0x20 other than tab, LF and CR, or DEL) in the first 8192 bytes. An empty file
 * is text.
 */
export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  if (n === 0) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) control++;
  }
  return control / n > 0.1;
}

/** 1-based line and UTF-16 column of an offset, computed against a precomputed line index. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}
