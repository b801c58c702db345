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
 * Every location a person may have written a skill by hand: where the targets write skills
 * (each module's declared outputs) and where their agents also read them (`importFrom`),
 * so that a new target is adopted from without a second list to keep. `targets` stays the
 * targets that write the folder: only there does compile take over a retired copy.
 */
export function adoptLocations(targets: readonly TargetDef[] = TARGETS): AdoptLocation[] {
  const byDir = new Map<string, { shape: AdoptLocation['shape']; suffix?: string; targets: TargetId[] }>();
  const add = (dir: string, shape: AdoptLocation['shape'], suffix: string | undefined, writer?: TargetId) => {
    const l = byDir.get(dir) ?? { shape, ...(suffix !== undefined ? { suffix } : {}), targets: [] };
    byDir.set(dir, l);
    if (writer !== undefined && !l.targets.includes(writer)) l.targets.push(writer);
  };
  for (const t of targets) {
    for (const out of t.outputs) {
      const dirMatch = SKILL_DIR_OUT.exec(out);
      const ruleMatch = dirMatch ? null : RULE_FILE_OUT.exec(out);
      if (dirMatch) add(dirMatch[1]!, 'skill-dir', undefined, t.id);
      else if (ruleMatch) add(ruleMatch[1]!, 'rule-file', ruleMatch[2]!, t.id);
    }
  }
  for (const t of targets) for (const src of t.importFrom) add(src.dir, src.layout, src.suffix);
  return [...byDir].map(([dir, l]) => ({
    dir,
    shape: l.shape,
    ...(l.suffix !== undefined ? { suffix: l.suffix } : {}),
    targets: l.targets,
  }));
}
