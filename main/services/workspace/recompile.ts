import { compileProject } from '../compile';
import { faultPoint } from './fault';

/**
 * Recompile after install, update or remove, through the compile service, so generated
 * output follows the installed set. A refusal (no targets, a skill over budget) is
 * reported, not thrown: the change itself is already committed and pinned.
 */
export async function recompileAfterChange(root: string, note: (text: string) => void, step = 'change'): Promise<void> {
  faultPoint(`${step}:before-compile`);
  let result;
  try {
    result = await compileProject(root);
  } catch (e) {
    note(
      `compile not run: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} — fix it, then: skillsmith compile\n`,
    );
    return;
  }
  if (result.plan.errors.length) {
    note(`compile not run: ${result.plan.errors[0]} — then: skillsmith compile\n`);
    return;
  }
  const a = result.applied;
  const changed = a ? a.written.length + a.rewritten.length + a.removed.length : 0;
  note(`compiled for ${result.plan.targets.length} target(s): ${changed} generated file(s) changed\n`);
  // A hand-written file in the way is left alone; the user must hear that the skill did not arrive there.
  for (const c of result.plan.conflicts) {
    note(
      `⚠ ${c.path} was written by hand — ${c.skill} is not delivered to ${c.targets.join(', ')}; adopt it (skillsmith import --write), rename one of them, or remove ${c.path}\n`,
    );
  }
  for (const f of result.plan.failures) note(`✗ ${f.name}: not compiled — ${f.message.split('\n')[0]}\n`);
  faultPoint(`${step}:compiled`);
}
