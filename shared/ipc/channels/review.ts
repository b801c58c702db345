import { z } from 'zod';
import { channel } from '../define';
import { Location, ProjectRelativePath, SkillName } from '../schemas';
import { ReviewId } from './install';

/**
 * The open install review, read more closely: any file of a staged skill (the review
 * session's in-memory copy — nothing else is reachable), and writing a reviewed exception
 * for one blocking finding the user read. Main re-derives everything (the finding, the
 * integrity) from its own staged copy; the renderer only names what it showed.
 */

/** Free text a person typed (who, why): one line, no control characters. */
const Said = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((s) => !/\p{Cc}/u.test(s), 'no control characters');

export const StagedFile = z.object({
  skill: z.string(),
  path: z.string(),
  kind: z.enum(['text', 'binary', 'symlink']),
  bytes: z.number().int(),
  /** The text (UTF-8, replacement characters for bad bytes), capped; absent for binaries. */
  text: z.string().optional(),
  truncated: z.boolean(),
  /** Symlink target as stored. */
  target: z.string().optional(),
  /** Every warning and failure located in this file, with its check id. */
  findings: z.array(
    z.object({ check: z.string(), status: z.enum(['warn', 'fail']), detail: z.string(), location: Location }),
  ),
});
export type StagedFile = z.infer<typeof StagedFile>;

export const reviewChannels = {
  files: channel(
    'every file of a skill in a live review session, with size and kind',
    z.object({ id: ReviewId, skill: SkillName }).strict(),
    z.object({
      files: z.array(
        z.object({
          path: z.string(),
          kind: z.enum(['text', 'binary', 'symlink']),
          bytes: z.number().int(),
          findings: z.number().int(),
        }),
      ),
    }),
  ),
  file: channel(
    'one staged file of a skill in a live review session: text with its findings, or a binary named with its size',
    z.object({ id: ReviewId, skill: SkillName, path: ProjectRelativePath }).strict(),
    StagedFile,
  ),
  acceptFinding: channel(
    'write a [[policy.exceptions]] entry to kitbash.toml for one blocking finding of the reviewed version (main re-checks the finding and takes the integrity from its staged copy)',
    z
      .object({
        id: ReviewId,
        skill: SkillName,
        /** A blocking check's id, or `scanner:<scanner>/<rule>` (SPEC D254). */
        check: z.string().min(1).max(300),
        file: ProjectRelativePath,
        line: z.number().int().min(1).max(10_000_000),
        by: Said,
        reason: Said,
      })
      .strict(),
    z.object({
      entry: z.object({
        skill: z.string(),
        integrity: z.string(),
        check: z.string(),
        file: z.string(),
        line: z.number().int(),
        by: z.string(),
        reason: z.string(),
      }),
    }),
  ),
} as const;
