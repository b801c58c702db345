import { formatError, type SkillsmithError } from '../../../shared/result';
import type { Skill } from '../../../shared/ksf/model';
import type { CompileInput, FailedSkill } from '../../../shared/compile/plan';
import { withheldSkills, type ReviewFacts, type WithheldSkill } from '../../../shared/compile/deliver';
import { EMPTY_CONFIG, type ProjectConfig } from '../../../shared/project/config';
import { readLock } from '../lock/index';
import { readProjectConfig } from '../project/config';
import { installedSkills } from '../skills/locate';
import { READ_EACH_TIME, type FolderReads } from '../skills/folder-reads';
import { openDeliveryChecks, type DeliveryChecks } from './checks-cache';

const SKILLS_REL = '.kitbash/skills';

/** How a file or folder was read: its entries listed, its bytes read (never through a link). */
export type SourceRead = (rel: string, how: 'listed' | 'read') => void;

/** kitbash.lock's pins (name → integrity) as the delivery decision reads them; none without a lock. */
export function lockPins(root: string): ReviewFacts['pins'] {
  const lock = readLock(root);
  if (!lock.ok) return { error: formatError({ ...lock.error, detail: [] }) };
  return new Map(lock.value.entries.map((e) => [e.name, e.integrity]));
}

/**
 * Every folder under .kitbash/skills/: the skills that load (all of them, withheld ones
 * included, so that the matrix can show them), the folders that do not, and the skills
 * compile may not deliver (shared/compile/deliver.ts), judged on the very trees read here.
 * `seen` hears each path that was read, relative to `root` (for the compile record).
 * `config` defaults to kitbash.toml as read now (a broken one: no exceptions, no policy —
 * the stricter reading). `checks` answers the delivery checks of a skill already judged.
 */
export function loadInstalled(
  root: string,
  seen?: SourceRead,
  reads: FolderReads = READ_EACH_TIME,
  config?: Pick<ProjectConfig, 'policy' | 'exceptions' | 'unconfirmedExceptions'>,
  checks?: DeliveryChecks,
): { skills: Skill[]; failures: FailedSkill[]; withheld: WithheldSkill[] } {
  const skills: Skill[] = [];
  const failures: FailedSkill[] = [];
  seen?.(SKILLS_REL, 'listed');
  for (const loc of installedSkills(root)) {
    if (loc.kind === 'broken') {
      failures.push({ name: loc.nameHint, message: loc.problem });
      continue;
    }
    const tree = reads.tree(loc.abs, loc.display);
    if (!tree.ok) {
      failures.push({ name: loc.nameHint, message: oneLine(tree.error) });
      continue;
    }
    if (seen) {
      seen(loc.display, 'listed');
      for (const e of tree.value.entries) seen(`${loc.display}/${e.path}`, e.kind === 'dir' ? 'listed' : 'read');
    }
    const loaded = reads.skill(tree.value);
    if (!loaded.ok) failures.push({ name: loc.nameHint, message: oneLine(loaded.error) });
    else skills.push(loaded.value);
  }
  const cfg = config ?? readConfigOrEmpty(root);
  const withheld = withheldSkills(skills, {
    pins: lockPins(root),
    integrityOf: (s) => (checks ? checks.integrity(s, (t) => reads.integrity(t)) : reads.integrity(s.tree)),
    config: cfg,
    ...(checks ? { checks } : {}),
  });
  checks?.save();
  return { skills, failures, withheld };
}

function readConfigOrEmpty(root: string): ProjectConfig {
  const c = readProjectConfig(root);
  return c.ok ? c.value : EMPTY_CONFIG;
}

/**
 * What the planner needs from the disk besides the project view: kitbash.toml and
 * kitbash.lock (their errors throw: compile refuses rather than guess what was reviewed)
 * and the skills.
 */
export function loadCompileInput(root: string, seen?: SourceRead): Omit<CompileInput, 'project'> {
  const config = readProjectConfig(root);
  if (!config.ok) throw new Error(formatError(config.error));
  const lock = readLock(root);
  if (!lock.ok) throw new Error(formatError({ ...lock.error, detail: [] }));
  const checks = openDeliveryChecks();
  return { ...loadInstalled(root, seen, READ_EACH_TIME, config.value, checks), config: config.value };
}

/** A load error on one line: the file, the problem, and the manifest violations after a dash. */
export function oneLine(e: SkillsmithError): string {
  const head = formatError({ ...e, detail: [] });
  return e.detail?.length ? `${head} — ${e.detail.join('; ')}` : head;
}
