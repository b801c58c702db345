import { z } from 'zod';
import { channel, Empty } from '../define';
import { Integrity, SourceText } from './install';

/**
 * Skills the project already has, written by hand in the agents' folders: the dashboard
 * offers to adopt them into `.kitbash/skills` after the install checks (scan shows the
 * review, apply adopts exactly that review, named by its hash). And the skills a source of
 * many skills holds, for the install form's checklist. Main rescans before it adopts: the
 * renderer only ever names what it was shown by its hash.
 */

export const AdoptItemView = z.object({
  name: z.string(),
  /** Hand-written copies, project-relative. */
  copies: z.array(z.string()),
  status: z.enum(['adoptable', 'blocked', 'conflict', 'managed', 'invalid']),
  reason: z.string().optional(),
  /** Copies compile regenerates once adopted (removed after the adopted copy is committed). */
  retire: z.array(z.string()),
  /** Copies left as they are. */
  keep: z.array(z.string()),
  /** The review of the adopted copy (adoptable and blocked items). */
  review: z
    .object({
      version: z.string(),
      description: z.string(),
      manifested: z.boolean(),
      files: z.array(z.string()),
      permissions: z.array(z.object({ permission: z.string(), declared: z.boolean() })),
      lint: z.array(z.object({ id: z.string(), status: z.enum(['warn', 'fail']), detail: z.string() })),
      safety: z.array(z.object({ id: z.string(), status: z.enum(['warn', 'fail']), detail: z.string() })),
      policy: z.array(z.string()),
      notices: z.array(z.string()),
      pinAs: z.string(),
    })
    .optional(),
});
export type AdoptItemView = z.infer<typeof AdoptItemView>;

export const AdoptPlanView = z.object({
  items: z.array(AdoptItemView),
  skillsLock: z
    .object({
      problem: z.string().optional(),
      entries: z.array(z.object({ name: z.string(), source: z.string().optional(), present: z.boolean() })),
    })
    .optional(),
  integrity: Integrity,
});
export type AdoptPlanView = z.infer<typeof AdoptPlanView>;

export const SourceSkillView = z.object({
  name: z.string(),
  description: z.string(),
  rel: z.string(),
  /** The source string that installs exactly this skill (install.begin takes it). */
  source: z.string(),
  problem: z.string().optional(),
});
export type SourceSkillView = z.infer<typeof SourceSkillView>;

export const adoptChannels = {
  scan: channel(
    "hand-written skills in the open project's agent folders, each with its install review, and what skills-lock.json pins; nothing written",
    Empty,
    AdoptPlanView,
  ),
  apply: channel(
    'adopt exactly the scanned review (named by its hash) into .kitbash/skills, then recompile; refused when the project changed since',
    z.object({ integrity: Integrity }).strict(),
    z.object({ adopted: z.array(z.string()), retired: z.array(z.string()), notes: z.array(z.string()) }),
  ),
} as const;

export const sourcesChannels = {
  list: channel(
    'the skills a source holds (one clone, nothing staged or written): the source itself, or each skill of a repository of many',
    z.object({ source: SourceText }).strict(),
    z.object({ single: z.boolean(), skills: z.array(SourceSkillView) }),
  ),
} as const;
