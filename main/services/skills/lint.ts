import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatError, type SkillsmithError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { lintSkill } from '../../../shared/lint/checks';
import { evalsCheck } from '../../../shared/lint/evals';
import type { SkillReport } from '../../../shared/lint/report/model';
import { jsonSchemaIssues } from '../schema/manifest-schema';
import type { SkillLocation } from './locate';
import { readSkillTree } from './reader';

/** Plain data, so the options can cross to a worker thread. */
export interface CheckOptions {
  /** Add the strict JSON-Schema tier (`--schema`). */
  readonly schema: boolean;
  /** Add the evals listing (`test`). */
  readonly evals: boolean;
}

/** Read, load and check one skill folder; a folder that does not load becomes a failed report. */
export function checkLocation(location: SkillLocation, options: CheckOptions): SkillReport {
  if (location.kind === 'broken') return failed(location, `${location.display}: ${location.problem}`);
  const tree = readSkillTree(location.abs, location.display);
  if (!tree.ok) return failed(location, formatError(tree.error), tree.error);
  const loaded = loadSkill(tree.value, { nameHint: location.nameHint });
  if (!loaded.ok) return failed(location, formatError(loaded.error), loaded.error);
  const skill = loaded.value;
  const checks = lintSkill(skill, options.schema ? { jsonSchema: jsonSchemaIssues } : {});
  const evals = options.evals ? evalsCheck(skill) : undefined;
  return {
    name: skill.manifest.skill.name,
    version: skill.manifest.skill.version,
    path: location.display,
    manifested: skill.manifested,
    checks: evals ? [...checks, evals] : checks,
  };
}

function failed(location: SkillLocation, detail: string, error?: SkillsmithError): SkillReport {
  const prefix = `${location.display}/`;
  const file = error?.file?.startsWith(prefix) ? error.file.slice(prefix.length) : undefined;
  const line = error?.line ?? 1;
  const column = error?.column ?? 1;
  return {
    name: location.nameHint,
    version: null,
    path: location.display,
    manifested: existsSync(join(location.abs, 'skill.toml')),
    checks: [
      {
        id: 'manifest',
        status: 'fail',
        detail,
        ...(file ? { locations: [{ file, line, column, endLine: line, endColumn: column }] } : {}),
      },
    ],
  };
}
