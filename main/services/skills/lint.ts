import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatError, type SkillsmithError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { lintSkill } from '../../../shared/lint/checks';
import { evalsCheck } from '../../../shared/lint/evals';
import type { SkillReport } from '../../../shared/lint/report/model';
import { jsonSchemaIssues } from '../schema/manifest-schema';
import { keyFromStamps, reportKey, stampFolder, type StampedKey, type StampRecord } from './cache';
import type { SkillLocation } from './locate';
import { readSkillTree } from './reader';

/** Plain data, so the options can cross to a worker thread. */
export interface CheckOptions {
  /** Add the strict JSON-Schema tier (`--schema`). */
  readonly schema: boolean;
  /** Add the evals listing (`test`). */
  readonly evals: boolean;
}

/** What a check consults of the lint cache: the engine stamp, which keys it holds, and recorded stamps. */
export interface CacheProbe {
  readonly engine: string;
  has(key: string): boolean;
  /** The stamps recorded for a folder as shown (D132). */
  stampsOf(display: string): readonly StampedKey[] | undefined;
}

/**
 * One skill checked through the cache: `key` names its report in the cache (absent when the
 * folder did not load, which is not cached); `report` is absent when the cache holds it.
 */
export interface Checked {
  readonly key?: string;
  readonly report?: SkillReport;
  /** The folder's stamp, when it had settled before its bytes were read: to record with the key. */
  readonly stamp?: StampRecord;
  /** Whether the folder's files were read (false: answered by its stamp, or not a folder). */
  readonly read?: boolean;
}

/** Read, load and check one skill folder; a folder that does not load becomes a failed report. */
export function checkLocation(location: SkillLocation, options: CheckOptions): SkillReport {
  return checkThrough(location, options, undefined).report!;
}

/**
 * Like checkLocation, but a folder whose key the cache holds is not loaded or linted. The
 * key is a hash of the very bytes read here, the ones a miss then lints — or, for a folder
 * whose settled stamp the cache recorded (D132), the key recorded with it, and nothing is
 * read. The stamp is taken before the bytes are read, so it never vouches for older bytes.
 */
export function checkThrough(location: SkillLocation, options: CheckOptions, cache: CacheProbe | undefined): Checked {
  if (location.kind === 'broken') return { report: failed(location, `${location.display}: ${location.problem}`) };
  const known = cache && keyFromStamps(cache.stampsOf(location.display), cache.engine, location, options);
  if (known !== undefined) return { key: known, read: false };
  const stamp = cache && stampFolder(cache.engine, location, options);
  const tree = readSkillTree(location.abs, location.display);
  if (!tree.ok) return { report: failed(location, formatError(tree.error), tree.error), read: true };
  const key = cache ? reportKey(cache.engine, location, options, tree.value) : undefined;
  if (key !== undefined && cache!.has(key)) return { key, stamp, read: true };
  const loaded = loadSkill(tree.value, { nameHint: location.nameHint });
  if (!loaded.ok) return { report: failed(location, formatError(loaded.error), loaded.error), read: true };
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
  return { key, report, stamp, read: true };
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
