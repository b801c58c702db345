import { TARGETS } from './registry';
import type { TargetDef, TargetId } from './types';

/**
 * A place where an agent reads skills, and so where a person may already have written one
 * by hand: a folder of skill folders (`<dir>/<name>/SKILL.md`) or of rule files
 * (`<dir>/<name><suffix>`). `targets` are those that write there (several targets share
 * `.agents/skills`).
 */
export interface AdoptLocation {
  readonly dir: string;
  readonly shape: 'skill-dir' | 'rule-file';
  /** Rule files only: the file name ending, e.g. `.mdc`. */
  readonly suffix?: string;
  readonly targets: readonly TargetId[];
}

const SKILL_DIR_OUT = /^([^<\s]+)\/<n>\/SKILL\.md$/;
const RULE_FILE_OUT = /^([^<\s]+)\/<n>(\.[A-Za-z.]+)(?:\s|$)/;

/**
 * Every location the targets write skills to, read from each module's declared outputs so
 * that a new target (or a changed output) is adopted from without a second list to keep.
 */
export function adoptLocations(targets: readonly TargetDef[] = TARGETS): AdoptLocation[] {
  const byDir = new Map<string, { shape: AdoptLocation['shape']; suffix?: string; targets: TargetId[] }>();
  for (const t of targets) {
    for (const out of t.outputs) {
      const dirMatch = SKILL_DIR_OUT.exec(out);
      const ruleMatch = dirMatch ? null : RULE_FILE_OUT.exec(out);
      const dir = dirMatch?.[1] ?? ruleMatch?.[1];
      if (dir === undefined) continue;
      const prior = byDir.get(dir);
      if (prior) {
        if (!prior.targets.includes(t.id)) prior.targets.push(t.id);
        continue;
      }
      byDir.set(dir, dirMatch ? { shape: 'skill-dir', targets: [t.id] } : { shape: 'rule-file', suffix: ruleMatch![2]!, targets: [t.id] });
    }
  }
  return [...byDir].map(([dir, l]) => ({ dir, shape: l.shape, ...(l.suffix !== undefined ? { suffix: l.suffix } : {}), targets: l.targets }));
}
