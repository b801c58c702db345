import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { CodedError } from '../../../shared/result';
import { resolveInside } from '../fs/contain';
import { checkLocation } from './lint';
import { installedSkills, SKILLS_DIR } from './locate';
import { readSkillTree } from './reader';

const MAX_TEXT = 512 * 1024;

/** An installed skill as the drawer shows it: its checks, files and the two texts, read inside the project. */
export function skillDetail(root: string, dir: string) {
  const rel = `${SKILLS_DIR}/${dir}`;
  const abs = resolveInside(root, rel);
  if (!abs) throw new CodedError('outside-project', `${dir}: resolves outside the open project`);
  if (!existsSync(abs) || !lstatSync(abs).isDirectory())
    throw new CodedError('not-found', `${dir}: no such installed skill`);
  const location = installedSkills(root).find((l) => l.nameHint === dir);
  if (!location) throw new CodedError('not-found', `${dir}: no such installed skill`);
  // The options every verdict uses (dashboard rows, review, run), so the drawer's checks add up to the row's counts.
  const report = checkLocation(location, { schema: false, evals: false });
  const tree = readSkillTree(abs, location.display);
  const files = tree.ok
    ? tree.value.entries.flatMap((e) => (e.kind === 'file' ? [{ path: e.path, bytes: e.bytes.length }] : []))
    : [];
  const text = (name: string): string | null => {
    if (!tree.ok) return null;
    const entry = tree.value.entries.find((e) => e.path === name);
    if (!entry || entry.kind !== 'file') return null;
    const decoded = decodeUtf8(entry.bytes.length > MAX_TEXT ? entry.bytes.subarray(0, MAX_TEXT) : entry.bytes);
    return decoded.ok ? decoded.value.text : null;
  };
  return {
    dir,
    name: report.name,
    path: join(SKILLS_DIR, dir).split('\\').join('/'),
    manifestText: text('skill.toml'),
    skillMd: text('SKILL.md'),
    files,
    checks: report.checks.map((c) => ({ ...c, locations: c.locations?.map((l) => ({ ...l })) })),
  };
}
