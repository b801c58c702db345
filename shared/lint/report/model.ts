import type { Check } from '../types';
import { EXIT, type Exit } from '../../result';

/** One skill's verdict, the unit every output format (human, JSON, SARIF, the app) renders. */
export interface SkillReport {
  readonly name: string;
  /** `null` when the skill did not load. */
  readonly version: string | null;
  /** The skill folder as shown to the user. */
  readonly path: string;
  readonly manifested: boolean;
  readonly checks: readonly Check[];
}

export interface Totals {
  readonly skills: number;
  readonly failures: number;
  readonly warnings: number;
}

export function totals(reports: readonly SkillReport[]): Totals {
  let failures = 0;
  let warnings = 0;
  for (const r of reports) {
    for (const c of r.checks) {
      if (c.status === 'fail') failures++;
      else if (c.status === 'warn') warnings++;
    }
  }
  return { skills: reports.length, failures, warnings };
}

/** 0 clean, 1 failures — or warnings when `strict`. */
export function exitCodeFor(t: Totals, strict: boolean): Exit {
  return t.failures > 0 || (strict && t.warnings > 0) ? EXIT.failed : EXIT.ok;
}
