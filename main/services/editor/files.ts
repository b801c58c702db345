import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSkill } from '../../../shared/ksf/load';
import { NEW_SKILL_DEFAULTS } from '../../../shared/ksf/model';
import { KSF_NAME_RE, isKsfName } from '../../../shared/names';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { CodedError, formatError } from '../../../shared/result';
import { writeFileInside } from '../fs/inside';
import { resolveInside } from '../fs/contain';
import { SKILLS_DIR } from '../skills/locate';
import { readSkillTree } from '../skills/reader';

/**
 * The editor's file access, inside one project: every path is a skill folder name plus a
 * skill-relative file, resolved inside `<root>/.kitbash/skills/<dir>` (symlinks included)
 * before anything is read or written. Versions are sha256 of the bytes, so a save can
 * tell whether the disk changed since the buffer was opened.
 */

const EDITABLE =
  /^(?:skill\.toml|SKILL\.md|skill\.spec\.yml|prompts\/[A-Za-z0-9][A-Za-z0-9._-]*\.md|evals\/[A-Za-z0-9][A-Za-z0-9._-]*\.eval\.yaml)$/;

export function isEditable(path: string): boolean {
  return EDITABLE.test(path);
}

export function versionOf(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface EditorFileData {
  path: string;
  text: string | null;
  base64: string | null;
  version: string | null;
  editable: boolean;
}

function skillFolder(root: string, dir: string): string {
  if (!isKsfName(dir)) throw new CodedError('invalid-request', `${dir}: not a skill folder name`);
  const abs = resolveInside(root, join(SKILLS_DIR, dir));
  if (!abs) throw new CodedError('outside-project', `${dir}: resolves outside the open project`);
  return abs;
}

function existingSkill(root: string, dir: string): string {
  const abs = skillFolder(root, dir);
  if (!existsSync(abs) || lstatSync(abs).isSymbolicLink() || !lstatSync(abs).isDirectory()) {
    throw new CodedError('not-found', `${dir}: no such skill in ${SKILLS_DIR.split('\\').join('/')}`);
  }
  return abs;
}

function fileIn(root: string, dir: string, file: string): string {
  if (!isEditable(file))
    throw new CodedError(
      'invalid-request',
      `${file}: not an editable file (skill.toml, SKILL.md, skill.spec.yml, prompts/<name>.md, evals/<name>.eval.yaml)`,
    );
  const folder = existingSkill(root, dir);
  const abs = resolveInside(folder, file);
  if (!abs) throw new CodedError('outside-project', `${dir}/${file}: resolves outside the skill folder`);
  return abs;
}

/** Every file of the skill, text where it decodes, with versions. */
export function openSkill(
  root: string,
  dir: string,
): { dir: string; path: string; files: EditorFileData[]; dirs: string[] } {
  const abs = existingSkill(root, dir);
  const display = `${SKILLS_DIR}/${dir}`.split('\\').join('/');
  const tree = readSkillTree(abs, display);
  if (!tree.ok) throw new CodedError('invalid-input', formatError(tree.error));
  const files: EditorFileData[] = [];
  const dirs: string[] = [];
  for (const e of tree.value.entries) {
    if (e.kind === 'dir') dirs.push(e.path);
    if (e.kind !== 'file') continue;
    const decoded = decodeUtf8(e.bytes);
    files.push({
      path: e.path,
      text: decoded.ok ? decoded.value.text : null,
      base64: decoded.ok ? null : Buffer.from(e.bytes).toString('base64'),
      version: versionOf(e.bytes),
      editable: isEditable(e.path) && decoded.ok,
    });
  }
  return { dir, path: display, files, dirs };
}

/** One editable file as it is on disk now (`text` null when it does not exist). */
export function readEditable(root: string, dir: string, file: string): { text: string | null; version: string | null } {
  const abs = fileIn(root, dir, file);
  if (!existsSync(abs)) return { text: null, version: null };
  if (lstatSync(abs).isSymbolicLink())
    throw new CodedError('invalid-request', `${dir}/${file}: is a symlink — not followed`);
  const bytes = readFileSync(abs);
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) throw new CodedError('invalid-input', `${dir}/${file}: not valid UTF-8 — not editable here`);
  return { text: decoded.value.text, version: versionOf(bytes) };
}

export type SaveOutcome =
  { status: 'saved'; version: string } | { status: 'conflict'; disk: { text: string | null; version: string | null } };

/**
 * Write `text` atomically, but only if the file on disk is still at `expected` (null: it
 * must not exist yet). Otherwise nothing is written and the caller gets the disk version
 * to show beside its buffer. `force` writes regardless (the author chose their version).
 */
export function saveEditable(
  root: string,
  dir: string,
  file: string,
  text: string,
  expected: string | null,
  force = false,
): SaveOutcome {
  const disk = readEditable(root, dir, file);
  if (!force && disk.version !== expected) return { status: 'conflict', disk };
  const bytes = Buffer.from(text, 'utf8');
  // Checked above, written here through folders opened inside the project: a folder
  // swapped for a symlink in between cannot carry the write outside.
  writeFileInside(root, `${SKILLS_DIR}/${dir}/${file}`, bytes);
  return { status: 'saved', version: versionOf(bytes) };
}

function tomlString(s: string): string {
  // JSON's escapes are a subset of TOML basic-string escapes; DEL is escaped for readers that refuse it raw.
  return JSON.stringify(s).replace(/\u007f/g, '\\u007F');
}

export function newSkillFiles(name: string, description: string): { 'skill.toml': string; 'SKILL.md': string } {
  const desc = description.replace(/\s+/g, ' ').trim();
  return {
    'skill.toml': [
      '[skill]',
      `name = ${tomlString(name)}`,
      `version = ${tomlString(NEW_SKILL_DEFAULTS.version)}`,
      `description = ${tomlString(desc)}`,
      '',
      '[context]',
      `budget = ${NEW_SKILL_DEFAULTS.budget}`,
      `standing = ${NEW_SKILL_DEFAULTS.standing}`,
      `disclosure = ${tomlString(NEW_SKILL_DEFAULTS.disclosure)}`,
      '',
      '[triggers]',
      'commands = []',
      '',
    ].join('\n'),
    'SKILL.md': [
      `# ${name}`,
      '',
      desc,
      '',
      '## Steps',
      '',
      '1. Describe the first thing the agent should do.',
      '',
    ].join('\n'),
  };
}

/** Create `.kitbash/skills/<name>/` with a valid manifest and SKILL.md; refuses an existing folder. */
export function createSkill(root: string, name: string, description: string): { dir: string } {
  if (!isKsfName(name))
    throw new CodedError('invalid-request', `skill name "${name}" must match ${String(KSF_NAME_RE)}`);
  const files = newSkillFiles(name, description);
  const enc = new TextEncoder();
  const loaded = loadSkill({
    root: name,
    entries: Object.entries(files).map(([path, text]) => ({ kind: 'file' as const, path, bytes: enc.encode(text) })),
  });
  if (!loaded.ok) throw new CodedError('invalid-input', formatError(loaded.error).replace(/\n\s+- /g, '; '));
  const abs = skillFolder(root, name);
  if (existsSync(abs))
    throw new CodedError(
      'invalid-request',
      `${SKILLS_DIR.split('\\').join('/')}/${name}: already exists — pick another name`,
    );
  writeFileInside(root, `${SKILLS_DIR}/${name}/skill.toml`, files['skill.toml']);
  writeFileInside(root, `${SKILLS_DIR}/${name}/SKILL.md`, files['SKILL.md']);
  return { dir: name };
}
