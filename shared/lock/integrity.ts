import type { SkillTree } from '../ksf/tree';
import { Sha256, type ByteHasher } from './sha256';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const NUL = new Uint8Array([0]);
const SYMLINK_MARK = new Uint8Array([1, ...asciiBytes('symlink'), 1]);

/** A lock integrity value: `sha256-` and 64 lower-case hex digits. */
export const INTEGRITY_RE = /^sha256-[0-9a-f]{64}$/;

/**
 * The reference's directory hash over a tree already in walk order (readSkillTree's
 * order): for each file or symlink, its path, NUL, then the link target behind a marker
 * or the normalised bytes, then NUL. Folders contribute nothing by themselves.
 */
export function treeIntegrity(tree: SkillTree, hasher: ByteHasher = new Sha256()): string {
  for (const entry of tree.entries) {
    if (entry.kind === 'dir') continue;
    hasher.update(utf8Encode(entry.path));
    hasher.update(NUL);
    if (entry.kind === 'symlink') {
      hasher.update(SYMLINK_MARK);
      hasher.update(utf8Encode(entry.target));
    } else {
      hasher.update(hashableBytes(entry.bytes));
    }
    hasher.update(NUL);
  }
  return `sha256-${hasher.hex()}`;
}

/**
 * What the hash reads of a file: bytes with a NUL are taken verbatim; anything else is
 * read as UTF-8 (bad sequences become U+FFFD) with CRLF turned into LF.
 */
export function hashableBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.indexOf(0) !== -1) return bytes;
  if (bytes.indexOf(13) === -1) {
    if (isAscii(bytes)) return bytes;
    try {
      strict.decode(bytes);
      return bytes; // valid UTF-8 without CR: decoding and re-encoding is the identity
    } catch {
      // fall through to the lenient path
    }
  }
  return utf8Encode(lenient.decode(bytes).replaceAll('\r\n', '\n'));
}

/** True when every byte is below 0x80 (then the bytes are valid UTF-8 as they are). */
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** UTF-8 encoding of a JS string (lone surrogates become U+FFFD, as TextEncoder does). */
export function utf8Encode(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[n++] = 0xf0 | (cp >> 18);
        out[n++] = 0x80 | ((cp >> 12) & 0x3f);
        out[n++] = 0x80 | ((cp >> 6) & 0x3f);
        out[n++] = 0x80 | (cp & 0x3f);
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return out.subarray(0, n);
}

function asciiBytes(s: string): number[] {
  return [...s].map((ch) => ch.charCodeAt(0));
}
