import { NAME_RE } from '../../../shared/ksf/model';
import { applyRemove, planRemove } from '../../services/install/remove';
import { installedSkills } from '../../services/skills/locate';
import { withProjectLock } from '../../services/workspace/project-lock';
import { recompileAfterChange } from '../../services/workspace/recompile';
import { recover } from '../../services/workspace/txn';
import { parseCommandArgs } from '../args';
import { UsageError, type CliIo, type ExitCode } from '../io';
import { confirm, interactive } from './prompt';

const FLAGS = { yes: { type: 'boolean', short: 'y' }, 'no-compile': { type: 'boolean' } } as const;

/** `remove <name> [--yes]`: refuses while other skills depend on it; offers to remove orphaned dependencies. */
export async function runRemove(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const name = positionals[0];
  if (name === undefined || positionals.length > 1 || !NAME_RE.test(name)) throw new UsageError('usage: skillsmith remove <skill-name> [--yes]');
  return withProjectLock(io.cwd, `remove ${name}`, async () => {
    for (const line of recover(io.cwd)) io.err(`note: ${line}\n`);
    const installed = installedSkills(io.cwd).map((s) => s.nameHint);
    if (!installed.includes(name)) {
      io.err(`${name} is not installed.\n${installed.length ? `  installed: ${installed.join(', ')}` : '  no skills installed yet.'}\n`);
      return 1;
    }
    const plan = planRemove(io.cwd, name);
    if (plan.dependents.length) {
      io.err(`cannot remove ${name}: ${plan.dependents.join(', ')} depend${plan.dependents.length === 1 ? 's' : ''} on it — remove ${plan.dependents.length === 1 ? 'that' : 'those'} first.\n`);
      return 1;
    }
    let also: readonly string[] = [];
    if (plan.orphans.length) {
      const list = plan.orphans.join(', ');
      if (flags.yes) also = plan.orphans;
      else if (interactive() && (await confirm(`${list} ${plan.orphans.length === 1 ? 'was' : 'were'} installed only for ${name} and nothing else needs ${plan.orphans.length === 1 ? 'it' : 'them'}. Remove ${plan.orphans.length === 1 ? 'it' : 'them'} too? [y/N] `))) also = plan.orphans;
      else io.out(`kept ${list} — nothing needs ${plan.orphans.length === 1 ? 'it' : 'them'} any more (skillsmith remove ${plan.orphans[0]}, or rerun with --yes)\n`);
    }
    applyRemove(io.cwd, [name, ...also]);
    for (const n of [name, ...also]) io.out(`removed ${n}\n`);
    if (!flags['no-compile']) await recompileAfterChange(io.cwd, io.out, 'remove');
    return 0;
  });
}
