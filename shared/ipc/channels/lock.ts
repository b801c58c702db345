import { z } from 'zod';
import { channel } from '../define';
import { SkillName } from '../schemas';
import { Integrity, ReviewId, ReviewView } from './install';

/**
 * Re-pinning from the dashboard: an installed skill whose files no longer match kitbash.lock
 * (edited in place), or one that was never pinned, is reviewed as an install of its folder
 * as it is now, and approved by that review's hash — the install approval, the same refusals.
 */

export const RepinResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('pinned'), name: z.string(), version: z.string(), notes: z.array(z.string()) }),
  /** The folder (or its verdict) changed since the review: nothing pinned; here is the new review. */
  z.object({ outcome: z.literal('changed'), message: z.string(), review: ReviewView }),
]);
export type RepinResult = z.infer<typeof RepinResult>;

export const lockChannels = {
  review: channel(
    'review an installed skill folder as it is now, to pin it in kitbash.lock (drift or never pinned); nothing written',
    z.object({ dir: SkillName }).strict(),
    ReviewView,
  ),
  repin: channel(
    'pin exactly the reviewed files in kitbash.lock (named by the review hash), then recompile; refused when blocked or changed since',
    z.object({ id: ReviewId, integrity: Integrity }).strict(),
    RepinResult,
  ),
} as const;
