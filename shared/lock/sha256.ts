/**
 * SHA-256 for shared/ and the renderer, which have no node:crypto: @noble/hashes (pure
 * JavaScript, audited), incremental, behind the one interface the integrity walk feeds.
 * The only import point of that library: everything else asks this module.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** The hashing interface the integrity walk feeds; main/ passes node:crypto's Hash through it for speed. */
export interface ByteHasher {
  update(data: Uint8Array): void;
  /** Lower-case hex digest; the hasher is finished afterwards. */
  hex(): string;
}

export class Sha256 implements ByteHasher {
  private readonly h = sha256.create();

  update(data: Uint8Array): void {
    this.h.update(data);
  }

  hex(): string {
    return bytesToHex(this.h.digest());
  }
}

let oneShot = (data: Uint8Array): string => bytesToHex(sha256(data));

/**
 * Install a faster one-shot SHA-256 where one is at hand: main's entry points give node:crypto
 * (about ten times this library's speed on large inputs; the delivery record of a skill with
 * thousands of bundled files is most of a dashboard scan). The digest is the same, so only the
 * time changes; the renderer keeps the pure one.
 */
export function useSha256(impl: (data: Uint8Array) => string): void {
  oneShot = impl;
}

/** One-shot digest of bytes as lower-case hex. */
export function sha256Hex(data: Uint8Array): string {
  return oneShot(data);
}
