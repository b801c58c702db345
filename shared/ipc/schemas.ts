import { z } from 'zod';
import { KSF_NAME_RE } from '../names';

/**
 * Field rules shared by channels. They encode the security rules of the contract: a
 * skill name can never carry a path separator, a project-relative path can never climb
 * out or be absolute, sizes are capped. Main resolves every path inside the open project
 * on top of this (the schema is the first gate, not the only one).
 */

/**
 * An installed skill's folder name: exactly the KSF names install can produce (D127), so
 * never a `/`, `\`, `.` or NUL.
 */
export const SkillName = z
  .string()
  .regex(KSF_NAME_RE, 'a skill name is 2–41 lower-case letters, digits and hyphens, starting with a letter');

/** An absolute path the user chose (folder picker, recent list, typed in the web picker). */
export const AbsolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'a path may not contain NUL')
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path');

/** A path inside the open project, '/'-separated, never absolute, never `..`. */
export const ProjectRelativePath = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.includes('\0') && !p.includes('\\'), 'a project path uses "/" and no NUL')
  .refine((p) => !p.startsWith('/') && !/^[A-Za-z]:/.test(p), 'must be relative to the project')
  .refine((p) => !p.split('/').includes('..'), 'may not contain ".."');

export const CheckStatus = z.enum(['pass', 'warn', 'fail']);

export const Location = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  endLine: z.number().int(),
  endColumn: z.number().int(),
});

export const Check = z.object({
  id: z.string(),
  status: CheckStatus,
  detail: z.string().optional(),
  locations: z.array(Location).optional(),
});
