import { createHash } from 'node:crypto';
import { useSha256 } from '../../shared/lock/sha256';

/** Give shared/'s one-shot digests node:crypto's SHA-256; each entry point (and worker) calls this first. */
export function useNativeSha256(): void {
  useSha256((data) => createHash('sha256').update(data).digest('hex'));
}
