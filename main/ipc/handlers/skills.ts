import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { resolveInside } from '../../services/fs/contain';
import { checkLocation } from '../../services/skills/lint';
import { installedSkills, SKILLS_DIR } from '../../services/skills/locate';
import { readSkillTree } from '../../services/skills/reader';
import { HandlerError } from '../errors';
import type { AreaHandlers } from '../table';

const MAX_TEXT = 512 * 1024;

export const skillsHandlers: AreaHandlers<'skills'> = {
  get: (req, { session }) => {
    const { ref } = session.requireProject();
    const rel = `${SKILLS_DIR}/${req.dir}`;
    const abs = resolveInside(ref.root, rel);
    if (!abs) throw new HandlerError('outside-project', `${req.dir}: resolves outside the open project`);
    if (!existsSync(abs) || !lstatSync(abs).isDirectory())
      throw new HandlerError('not-found', `${req.dir}: no such installed skill`);
    const location = installedSkills(ref.root).find((l) => l.nameHint === req.dir);
    if (!location) throw new HandlerError('not-found', `${req.dir}: no such installed skill`);
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
      return decoded.ok ? decoded.text : null;
    };
    return {
      dir: req.dir,
      name: report.name,
      path: join(SKILLS_DIR, req.dir).split('\\').join('/'),
      manifestText: text('skill.toml'),
      skillMd: text('SKILL.md'),
      files,
      checks: report.checks.map((c) => ({ ...c, locations: c.locations?.map((l) => ({ ...l })) })),
    };
  },
};
