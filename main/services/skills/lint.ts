import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatError, type SkillsmithError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { lintSkill } from '../../../shared/lint/checks';
import { evalsCheck } from '../../../shared/lint/evals';
import type { SkillReport } from '../../../shared/lint/report/model';
import { jsonSchemaIssues } from '../schema/manifest-schema';
import { reportKey } from './cache';
import type { SkillLocation } from './locate';
import { readSkillTree } from './reader';

/** Plain data, so the options can cross to a worker thread. */
export interface CheckOptions {
  /** Add the strict JSON-Schema tier (`--schema`). */
  readonly schema: boolean;
  /** Add the evals listing (`test`). */
  readonly evals: boolean;
}

/** What a check consults of the lint cache: the engine stamp and which keys it holds. */
export interface CacheProbe {
  readonly engine: string;
  has(key: string): boolean;
}

/**
 * One skill checked through the cache: `key` names its report in the cache (absent when the
 * folder did not load, which is not cached); `report` is absent when the cache holds it.
 */
export interface Checked {
  readonly key?: string;
  readonly report?: SkillReport;
}

/** Read, load and check one skill folder; a folder that does not load becomes a failed report. */
export function checkLocation(location: SkillLocation, options: CheckOptions): SkillReport {
  return checkThrough(location, options, undefined).report!;
}

/**
 * Like checkLocation, but a folder whose key the cache holds is not loaded or linted. The
 * key is a hash of the very bytes read here, the ones a miss then lints.
 */
export function checkThrough(location: SkillLocation, options: CheckOptions, cache: CacheProbe | undefined): Checked {
  if (location.kind === 'broken') return { report: failed(location, `${location.display}: ${location.problem}`) };
  const tree = readSkillTree(location.abs, location.display);
  if (!tree.ok) return { report: failed(location, formatError(tree.error), tree.error) };
  const key = cache ? reportKey(cache.engine, location, options, tree.value) : undefined;
  if (key !== undefined && cache!.has(key)) return { key };
  const loaded = loadSkill(tree.value, { nameHint: location.nameHint });
  if (!loaded.ok) return { report: failed(location, formatError(loaded.error), loaded.error) };
  const skill = loaded.value;
  const checks = lintSkill(skill, options.schema ? { jsonSchema: jsonSchemaIssues } : {});
  const evals = options.evals ? evalsCheck(skill) : undefined;
  const report: SkillReport = {
    name: skill.manifest.skill.name,
    version: skill.manifest.skill.version,
    path: location.display,
    manifested: skill.manifested,
    checks: evals ? [...checks, evals] : checks,
  };
  return { key, report };
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
