import { fail, ok, type Result } from '../result';

/**
 * What an archive entry's name may be before anything of it reaches the disk (SPEC D323):
 * a relative path of plain segments. The discovery RFC's archive rules (no `..`, no absolute
 * path) plus what a skill folder can hold on every system Skillsmith runs on.
 */
export const ARCHIVE_PATH_LIMITS = { path: 1024, segment: 255 } as const;

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The entry's path with `.` segments and a trailing `/` dropped ('' for the archive root
 * itself), or why it is refused.
 */
export function archiveEntryPath(name: string): Result<string> {
  if (name === '') return fail('invalid-input', 'an entry has an empty name');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return fail('invalid-input', 'an absolute path');
  if (name.includes('\\')) return fail('invalid-input', 'a backslash in the path');
  if (CONTROL.test(name)) return fail('invalid-input', 'a control character in the path');
  if (name.length > ARCHIVE_PATH_LIMITS.path)
    return fail('invalid-input', `a path longer than ${ARCHIVE_PATH_LIMITS.path} characters`);
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return fail('invalid-input', 'a ".." segment (path traversal)');
  if (segments.some((s) => s.length > ARCHIVE_PATH_LIMITS.segment))
    return fail('invalid-input', `a path segment longer than ${ARCHIVE_PATH_LIMITS.segment} characters`);
  return ok(segments.join('/'));
}

/**
 * The folder inside the archive that is the skill: its root, as the RFC says (`SKILL.md` at
 * the top), or the one folder everything is under when that folder holds the `SKILL.md` (an
 * archive made of the skill's folder rather than of its contents). Undefined: neither.
 */
export function archiveSkillRoot(files: readonly string[]): string | undefined {
  if (files.includes('SKILL.md')) return '';
  const tops = new Set(files.map((f) => f.split('/')[0]!));
  if (tops.size !== 1) return undefined;
  const [top] = tops;
  return files.includes(`${top}/SKILL.md`) ? top : undefined;
}
