import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Sha256, sha256Hex, useSha256 } from '../../shared/lock/sha256';
import { useNativeSha256 } from '../../main/services/native-sha256';
import { treeIntegrity, utf8Encode } from '../../shared/lock/integrity';
import { reviewIntegrity } from '../../shared/lock/review';
import { readSkillTree } from '../../main/services/skills/reader';

/** The pure digest, to put back after a test installs another. */
function pureSha256(data: Uint8Array): string {
  const h = new Sha256();
  h.update(data);
  return h.hex();
}

/*
 * Digests pinned as fixed strings (not against another implementation), so that whatever
 * computes SHA-256 behind shared/lock/sha256.ts, every lock file, compile record and
 * content hash already written stays valid.
 */

const ascii = (s: string): Uint8Array => utf8Encode(s);

describe('sha256 (FIPS 180-4 test vectors)', () => {
  it('hashes the NIST short messages', () => {
    expect(sha256Hex(ascii(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(ascii('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(ascii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('hashes a million "a" fed in uneven pieces', () => {
    const h = new Sha256();
    const piece = ascii('a'.repeat(997));
    let left = 1_000_000;
    while (left > 0) {
      const n = Math.min(left, piece.length);
      h.update(piece.subarray(0, n));
      left -= n;
    }
    expect(h.hex()).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });
});

describe('hashes Skillsmith has written stay the same', () => {
  it("gives the example workspace's installed skills the integrity its kitbash.lock records", () => {
    const root = join(__dirname, '../../examples/workspace');
    const pinned: Record<string, string> = {
      'api-style': 'sha256-b3a7d50a22cbce19a3bd4e2c805cbbd914a9ee4fb85396911cf3060725c27f00',
      'release-notes': 'sha256-c14f979089cce0bedc00232efefbb5f8b1a5c72b77a928cbc2e509529c634722',
    };
    for (const [name, integrity] of Object.entries(pinned)) {
      const tree = readSkillTree(join(root, '.kitbash/skills', name), name);
      if (!tree.ok) throw new Error(tree.error.message);
      expect(treeIntegrity(tree.value), name).toBe(integrity);
    }
  });

  it('keeps the review hash of a fixed review', () => {
    expect(
      reviewIntegrity([
        { name: 'a', version: '1.0.0', integrity: 'sha256-' + '0'.repeat(64) },
        { name: 'b', version: '2.1.0', integrity: 'sha256-' + 'f'.repeat(64) },
      ]),
    ).toBe('sha256-ca1bcf0316c61793449d74a7ad43aaf1a7901910ec987fb6a181970029e89977');
  });
});

describe("main's node:crypto one-shot digest (useNativeSha256)", () => {
  it('is installed behind sha256Hex and gives the same digests as the pure one', () => {
    const inputs = [new Uint8Array(0), utf8Encode('abc'), new Uint8Array(3 * 1024 * 1024).fill(7)];
    const pure = inputs.map((b) => sha256Hex(b));
    let calls = 0;
    useSha256((data) => (calls++, createHash('sha256').update(data).digest('hex')));
    try {
      expect(inputs.map((b) => sha256Hex(b))).toEqual(pure);
      expect(calls).toBe(inputs.length);
      useNativeSha256();
      expect(inputs.map((b) => sha256Hex(b))).toEqual(pure);
      expect(pure[1]).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    } finally {
      useSha256(pureSha256);
    }
  });
});
