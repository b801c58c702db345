import { z } from 'zod';
import { channel } from '../define';
import { SkillName } from '../schemas';

/**
 * The skill editor: read a skill's files for editing, save one with a conflict check,
 * create a new skill. Skills are addressed by folder name and files by a skill-relative
 * path that main checks against the editable set and resolves inside the skill folder.
 */

/** A file the editor may write: the manifest, SKILL.md, the SkillSpec, a prompt, an eval. */
export const EditableFile = z
  .string()
  .min(1)
  .max(200)
  .regex(
    /^(?:skill\.toml|SKILL\.md|skill\.spec\.yml|prompts\/[A-Za-z0-9][A-Za-z0-9._-]*\.md|evals\/[A-Za-z0-9][A-Za-z0-9._-]*\.eval\.yaml)$/,
    'editable files are skill.toml, SKILL.md, skill.spec.yml, prompts/<name>.md and evals/<name>.eval.yaml',
  );

/** Content version: sha256 (hex) of the bytes on disk; null = the file does not exist. */
export const Version = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .nullable();

export const EditorFile = z.object({
  /** Skill-relative, '/'-separated. */
  path: z.string(),
  /** UTF-8 text, or null for a binary / non-UTF-8 file (then `base64` holds its bytes). */
  text: z.string().nullable(),
  base64: z.string().nullable(),
  version: Version,
  editable: z.boolean(),
});
export type EditorFile = z.infer<typeof EditorFile>;

export const EditorSkill = z.object({
  dir: z.string(),
  /** Project-relative folder, e.g. `.kitbash/skills/prereview`. */
  path: z.string(),
  /** Every file of the skill folder (the diagnostics engine reads them all), walk order. */
  files: z.array(EditorFile),
  /** Sub-folders (so an empty `prompts/` is known). */
  dirs: z.array(z.string()),
});
export type EditorSkill = z.infer<typeof EditorSkill>;

export const SaveResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('saved'), version: z.string() }),
  /** The disk changed since `expected`: nothing was written; here is what is there now. */
  z.object({ status: z.literal('conflict'), disk: z.object({ text: z.string().nullable(), version: Version }) }),
]);
export type SaveResult = z.infer<typeof SaveResult>;

export const editorChannels = {
  open: channel(
    "a skill's files for the editor, each with its on-disk version",
    z.object({ dir: SkillName }).strict(),
    EditorSkill,
  ),
  read: channel(
    'one file of a skill as it is on disk now',
    z.object({ dir: SkillName, file: EditableFile }).strict(),
    z.object({ text: z.string().nullable(), version: Version }),
  ),
  save: channel(
    'write one file atomically unless it changed on disk since `expected` (force: write anyway)',
    z
      .object({
        dir: SkillName,
        file: EditableFile,
        text: z.string().max(8 * 1024 * 1024),
        expected: Version,
        force: z.boolean().optional(),
      })
      .strict(),
    SaveResult,
  ),
  create: channel(
    'create a new manifested skill (skill.toml + SKILL.md) under .kitbash/skills/<name>',
    z.object({ name: SkillName, description: z.string().min(1).max(400) }).strict(),
    z.object({ dir: z.string() }),
  ),
} as const;
