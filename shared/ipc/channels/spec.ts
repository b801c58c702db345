import { z } from 'zod';
import { channel } from '../define';
import { SkillName } from '../schemas';

/**
 * SkillSpec files of installed skills, for the playground. Main reads and fully validates
 * the spec (imports and sidecars included, contained in the project); the renderer runs
 * the pure engine (decide, scenario tests) on the text itself, keystroke by keystroke.
 */

export const SpecSummary = z.object({
  dir: z.string(),
  /** Project-relative path of the spec file. */
  path: z.string(),
  bytes: z.number().int(),
});
export type SpecSummary = z.infer<typeof SpecSummary>;

export const SpecValidation = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), tests: z.number().int(), rules: z.number().int(), routes: z.number().int() }),
  z.object({
    ok: z.literal(false),
    kind: z.string(),
    message: z.string(),
    line: z.number().int().optional(),
    column: z.number().int().optional(),
  }),
]);
export type SpecValidation = z.infer<typeof SpecValidation>;

export const SpecFile = z.object({
  dir: z.string(),
  path: z.string(),
  text: z.string(),
  /** The full load (parse, validate, import files and sections, sidecar files). */
  validation: SpecValidation,
});
export type SpecFile = z.infer<typeof SpecFile>;

export const specChannels = {
  list: channel(
    'installed skills that carry a skill.spec.yml',
    z.object({}).strict(),
    z.object({ specs: z.array(SpecSummary) }),
  ),
  load: channel(
    "one installed skill's skill.spec.yml: its text and the full validation (imports, sidecars)",
    z.object({ dir: SkillName }).strict(),
    SpecFile,
  ),
} as const;
