import type { SkillReport } from '../../../shared/lint/report/model';
import { keyFromStamps, type LintCache } from './cache';
import type { CheckOptions } from './lint';
import type { SkillLocation } from './locate';

/**
 * The reports the lint cache can give without reading a skill's files (D132): a folder
 * whose stamp is one the cache recorded, settled, with an intact entry. Undefined where it
 * cannot (a changed or new folder, a broken one, a damaged entry); those are checked by
 * checkAll. Deliberately free of the lint engine: a warm lint that answers every skill
 * here never loads it.
 */
export function reportsFromStamps(
  locations: readonly SkillLocation[],
  options: CheckOptions,
  cache: LintCache,
): (SkillReport | undefined)[] {
  return locations.map((location) => {
    if (location.kind !== 'folder') return undefined;
    const key = keyFromStamps(cache.stampsOf(location.display), cache.engine, location, options);
    return key === undefined ? undefined : cache.get(key);
  });
}
