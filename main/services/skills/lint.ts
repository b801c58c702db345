import { formatLoadError, type LoadError } from '../../../shared/ksf/errors';
import { loadSkill } from '../../../shared/ksf/load';
import { lintSkill, type LintOptions } from '../../../shared/lint/checks';
import type { SkillReport } from '../../../shared/lint/report/model';
import type { Skill } from '../../../shared/ksf/model';
import { entryAt } from '../../../shared/ksf/tree';
import type { SkillLocation } from './locate';
import { readSkillTree } from './reader';

export type Checked = { report: SkillReport; skill?: Skill };

/** Read, load and lint one skill folder; a folder that does not load becomes a failed report. */
export function checkLocation(location: SkillLocation, options: LintOptions = {}): Checked {
  if (location.kind === 'broken') return { report: failed(location, `${location.display}: ${location.problem}`, false) };
  const tree = readSkillTree(location.abs, location.display);
  if (!tree.ok) return { report: failed(location, formatLoadError(tree.error), false) };
  const loaded = loadSkill(tree.value, { nameHint: location.nameHint });
  if (!loaded.ok) return { report: failed(location, formatLoadError(loaded.error), entryAt(tree.value, 'skill.toml') !== undefined, loaded.error) };
  const skill = loaded.value;
  return {
    skill,
    report: {
      name: skill.manifest.skill.name,
      version: skill.manifest.skill.version,
      path: location.display,
      manifested: skill.manifested,
      checks: lintSkill(skill, options),
    },
  };
}

function failed(location: SkillLocation, detail: string, manifested: boolean, error?: LoadError): SkillReport {
  const prefix = `${location.display}/`;
  const file = error?.file.startsWith(prefix) ? error.file.slice(prefix.length) : undefined;
  return {
    name: location.nameHint,
    version: null,
    path: location.display,
    manifested,
    checks: [
      {
        id: 'manifest',
        status: 'fail',
        detail,
        ...(file ? { locations: [{ file, line: error?.line ?? 1, column: error?.column ?? 1, endLine: error?.line ?? 1, endColumn: error?.column ?? 1 }] } : {}),
      },
    ],
  };
}
