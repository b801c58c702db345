/** Text decoding and position helpers shared by the loader and every scanner. */
import { fail, ok, type Result } from '../result';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export const BOM = '\uFEFF';

export type Decoded = Result<{ text: string; bom: boolean }>;

/**
 * Strict UTF-8; one leading BOM is removed and reported as `bom`. The failure's message
 * names the first ill-formed byte: `not valid UTF-8 (invalid byte sequence at byte offset N)`.
 */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8Offset(bytes);
    return fail('invalid-input', `not valid UTF-8 (invalid byte sequence at byte offset ${at})`);
  }
  return ok(text.startsWith(BOM) ? { text: text.slice(1), bom: true } : { text, bom: false });
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
 * Formats whose first bytes say "binary" even when the first 8 KiB hold few control bytes
 * (a PDF's objects are ASCII up to its first compressed stream). Data, so one more format is
 * one more row.
 */
const BINARY_SIGNATURES: readonly (readonly number[])[] = [
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0x50, 0x4b, 0x03, 0x04], // ZIP (also docx, xlsx, jar, …)
  [0x50, 0x4b, 0x05, 0x06], // empty ZIP
  [0x1f, 0x8b], // gzip
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0xff, 0xd8, 0xff], // JPEG
  [0x42, 0x5a, 0x68], // bzip2
  [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], // xz
  [0x28, 0xb5, 0x2f, 0xfd], // zstd
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], // 7z
  [0x00, 0x61, 0x73, 0x6d], // WebAssembly
  [0xca, 0xfe, 0xba, 0xbe], // Java class, Mach-O fat
  [0xcf, 0xfa, 0xed, 0xfe], // Mach-O 64
  [0x4d, 0x5a], // Windows PE (MZ)
  [0x4f, 0x67, 0x67, 0x53], // Ogg
  [0x66, 0x4c, 0x61, 0x43], // FLAC
  [0x49, 0x44, 0x33], // MP3 (ID3)
  [0x52, 0x49, 0x46, 0x46], // RIFF (WAV, AVI, WebP)
  [0x77, 0x4f, 0x46, 0x32], // WOFF2
  [0x77, 0x4f, 0x46, 0x46], // WOFF
  [0x00, 0x01, 0x00, 0x00, 0x00], // TrueType
  [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], // SQLite format
];

const SAMPLE = 8192;

function hasSignature(bytes: Uint8Array): boolean {
  return BINARY_SIGNATURES.some((sig) => sig.length <= bytes.length && sig.every((b, i) => bytes[i] === b));
}

/**
 * The one binary-file rule, used by lint, install, diff and the review alike (SPEC §3.3):
 *
 * - more than 10% control bytes (below 0x20 other than tab, LF and CR, or DEL) in the first
 *   8192 bytes; or
 * - a NUL byte in the first 8192 bytes, or a known binary signature at the start, when the
 *   file is not valid UTF-8 as a whole.
 *
 * A file that decodes as UTF-8 stays text whatever it starts with: an agent can read it, so a
 * NUL or a `%PDF-` prefix must not hide what follows from the scanners (it fails
 * `visible-text` instead). An empty file is text.
 */
export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SAMPLE);
  if (n === 0) return false;
  let control = 0;
  let nul = false;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) {
      control++;
      if (c === 0) nul = true;
    }
  }
  if (control / n > 0.1) return true;
  return (nul || hasSignature(bytes)) && !decodeUtf8(bytes).ok;
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
