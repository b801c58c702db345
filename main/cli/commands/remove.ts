import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isKsfName } from '../../../shared/names';
import { applyRemove, planRemove } from '../../services/install/remove';
import { installedSkillsAsync } from '../../services/skills/locate';
import { withProjectLock } from '../../services/workspace/project-lock';
import { recompileAfterChange } from '../../services/workspace/recompile';
import { recover } from '../../services/workspace/txn';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { confirm, interactive } from './prompt';
import { CodedError } from '../../../shared/result';

const FLAGS = { yes: { type: 'boolean', short: 'y' }, 'no-compile': { type: 'boolean' } } as const;

/** `remove <name> [--yes]`: refuses while other skills depend on it; offers to remove orphaned dependencies. */
export async function runRemove(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const name = positionals[0];
  if (name === undefined || positionals.length > 1 || !isKsfName(name))
    throw new CodedError('invalid-request', 'usage: skillsmith remove <skill-name> [--yes]');
  // Plan and ask without the project lock (a person at the prompt can take minutes); then,
  // under the lock, plan again and refuse if the answer no longer fits.
  if (existsSync(join(io.cwd, '.kitbash')))
    for (const line of await withProjectLock(io.cwd, `remove ${name}`, () => recover(io.cwd)))
      io.err(`note: ${line}\n`);
  const installed = (await installedSkillsAsync(io.cwd)).map((s) => s.nameHint);
  if (!installed.includes(name)) {
    io.err(
      `${name} is not installed.\n${installed.length ? `  installed: ${installed.join(', ')}` : '  no skills installed yet.'}\n`,
    );
    return EXIT.failed;
  }
  const plan = await planRemove(io.cwd, name);
  if (plan.dependents.length) {
    io.err(dependentsMessage(name, plan.dependents));
    return EXIT.failed;
  }
  let also: readonly string[] = [];
  if (plan.orphans.length) {
    const list = plan.orphans.join(', ');
    const one = plan.orphans.length === 1;
    if (flags.yes) also = plan.orphans;
    else if (
      interactive() &&
      (await confirm(
        `${list} ${one ? 'was' : 'were'} installed only for ${name} and nothing else needs ${one ? 'it' : 'them'}. Remove ${one ? 'it' : 'them'} too? [y/N] `,
      ))
    )
      also = plan.orphans;
    else
      io.out(
        `kept ${list} — nothing needs ${one ? 'it' : 'them'} any more (skillsmith remove ${plan.orphans[0]}, or rerun with --yes)\n`,
      );
  }
  return withProjectLock(io.cwd, `remove ${name}`, async () => {
    if (!(await installedSkillsAsync(io.cwd)).some((s) => s.nameHint === name)) {
      io.err(`${name} was removed by another command meanwhile — nothing to do.\n`);
      return EXIT.failed;
    }
    const now = await planRemove(io.cwd, name);
    if (now.dependents.length) {
      io.err(dependentsMessage(name, now.dependents));
      return EXIT.failed;
    }
    const names = [name, ...also.filter((o) => now.orphans.includes(o))];
    await applyRemove(io.cwd, names);
    for (const n of names) io.out(`removed ${n}\n`);
    if (!flags['no-compile']) await recompileAfterChange(io.cwd, io.out, 'remove');
    return EXIT.ok;
  });
}

function dependentsMessage(name: string, dependents: readonly string[]): string {
  const one = dependents.length === 1;
  return `cannot remove ${name}: ${dependents.join(', ')} depend${one ? 's' : ''} on it — remove ${one ? 'that' : 'those'} first.\n`;
}
