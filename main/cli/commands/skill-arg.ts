import { CodedError, formatError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import { readSkillTree } from '../../services/skills/reader';
import { resolveTarget } from '../../services/skills/locate';

/** The skill a command-line argument names (path, file:source, or installed name); load errors throw. */
export function loadSkillArg(arg: string, cwd: string): Skill {
  const r = resolveTarget(arg, cwd);
  if (!r.ok) throw CodedError.of(r.error);
  const loc = r.value;
  if (loc.kind === 'broken') throw new Error(`${loc.display}: ${loc.problem}`);
  const tree = readSkillTree(loc.abs, loc.display);
  if (!tree.ok) throw new Error(formatError(tree.error));
  const loaded = loadSkill(tree.value, { nameHint: loc.nameHint });
  if (!loaded.ok) throw new Error(formatError(loaded.error));
  return loaded.value;
}
