import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderReview } from '../../../shared/lock/review';
import { SKILLS_LOCK_FILE } from '../../../shared/lock/skills-lock';
import { commitAdoption, type AdoptPlan, type AdoptScan } from '../../services/install/adopt';
import { writeFileAtomic } from '../../services/fs/atomic';
import { recompileAfterChange } from '../../services/workspace/recompile';
import { withProjectLock } from '../../services/workspace/project-lock';
import { recover } from '../../services/workspace/txn';
import type { CliIo, ExitCode } from '../io';
import { INIT_TEMPLATE } from './init';
import { CodedError } from '../../../shared/result';
import { chooseTargets } from './choose-targets';
import { templateWithTargets } from '../../../shared/targets/choose';
import { EXIT } from '../io';

/** The adoption part of `import`: each hand-written skill with its review, and what skills-lock.json pins. */
export function renderAdoption(plan: AdoptPlan): string {
  const lines: string[] = [];
  if (plan.items.length) {
    lines.push(
      '',
      `— ${plan.items.length} skill${plan.items.length === 1 ? '' : 's'} written by hand in the agents' folders —`,
    );
    for (const i of plan.items) {
      if (i.review) lines.push(renderReview(i.review).trimEnd());
      if (i.status === 'adoptable')
        lines.push(`  → adopt ${i.name} into .kitbash/skills/${i.name}/ (from ${i.copies[0]})`);
      else lines.push(`  ✗ ${i.name} (${i.copies.join(', ')}): not adopted — ${i.status}: ${i.reason ?? ''}`);
    }
  }
  const lock = plan.skillsLock;
  if (lock) {
    lines.push(
      '',
      `${SKILLS_LOCK_FILE} (the skills CLI's lock)${lock.problem ? `: ${lock.problem}` : ` names ${lock.entries.length} skill${lock.entries.length === 1 ? '' : 's'}:`}`,
    );
    for (const e of lock.entries) {
      if (!e.source)
        lines.push(`  ${e.name}: its source cannot be named as a Skillsmith source — adopted as local if present`);
      else if (e.present) lines.push(`  ${e.name}: pinned to ${e.source} when adopted`);
      else lines.push(`  ${e.name}: not in this project's agent folders — to pin it: skillsmith install ${e.source}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** Show the adoption review; with `write`, adopt what passed it (one journaled change), then recompile. */
export async function adoptSkills(
  scan: AdoptScan,
  opts: { write: boolean; compile: boolean; targets?: string },
  io: CliIo,
): Promise<ExitCode> {
  const { plan } = scan;
  io.out(renderAdoption(plan));
  const adoptable = plan.items.filter((i) => i.status === 'adoptable');
  const blocked = plan.items.filter((i) => i.status === 'blocked');
  for (const b of blocked) io.err(`  ✗ ${b.name}: blocked — ${b.reason ?? ''}\n`);
  if (blocked.length)
    io.err(
      `${blocked.length} hand-written skill${blocked.length === 1 ? '' : 's'} fail${blocked.length === 1 ? 's' : ''} a non-bypassable safety check or the [policy]: left where ${blocked.length === 1 ? 'it is' : 'they are'}, not adopted.\n`,
    );
  if (!adoptable.length) return blocked.length ? EXIT.failed : EXIT.ok;
  if (!opts.write) {
    io.out(
      `\nre-run with --write to adopt ${adoptable.length} skill${adoptable.length === 1 ? '' : 's'} into .kitbash/skills/ (pinned in kitbash.lock); compile then regenerates the agents' copies from them\n`,
    );
    return blocked.length ? EXIT.failed : EXIT.ok;
  }
  // Adopting sets the project up when it is not: its targets are chosen, never the floor by default (spec D220).
  const chosen = existsSync(join(io.cwd, 'kitbash.toml')) ? undefined : await chooseTargets(opts.targets, [], io);
  if (chosen && !chosen.ok) throw CodedError.of(chosen.error);
  const result = await withProjectLock(io.cwd, 'import', async () => {
    for (const line of await recover(io.cwd)) io.err(`note: ${line}\n`);
    if (chosen && !existsSync(join(io.cwd, 'kitbash.toml')))
      writeFileAtomic(join(io.cwd, 'kitbash.toml'), templateWithTargets(INIT_TEMPLATE, chosen.value));
    return commitAdoption(scan, { integrity: plan.integrity });
  });
  io.out(
    `\nadopted ${result.adopted.length} skill${result.adopted.length === 1 ? '' : 's'} into .kitbash/skills/ (${result.adopted.join(', ')}), pinned in kitbash.lock\n`,
  );
  if (result.retired.length)
    io.out(
      `  replaced the hand-written ${result.retired.join(', ')} — the adopted copies in .kitbash/skills/ hold them byte for byte\n`,
    );
  if (opts.compile) await recompileAfterChange(io.cwd, io.out, 'import');
  else io.out('next: skillsmith compile\n');
  return blocked.length ? EXIT.failed : EXIT.ok;
}
