import { z } from 'zod';
import { channel } from '../define';
import { Check, SkillName } from '../schemas';

/** Skills of the open project, addressed by folder name — never by a path. */

export const SkillDetail = z.object({
  dir: z.string(),
  name: z.string(),
  /** Project-relative folder, e.g. `.kitbash/skills/prereview`. */
  path: z.string(),
  manifestText: z.string().nullable(),
  skillMd: z.string().nullable(),
  files: z.array(z.object({ path: z.string(), bytes: z.number().int() })),
  checks: z.array(Check),
});
export type SkillDetail = z.infer<typeof SkillDetail>;

export const skillsChannels = {
  get: channel(
    'one installed skill: its files, manifest, SKILL.md and checks',
    z.object({ dir: SkillName }).strict(),
    SkillDetail,
  ),
} as const;
