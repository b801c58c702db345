import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { powerLabel } from '../../../shared/lock/powers';
import { renderReview } from '../../../shared/lock/review';
import { plural } from '../../../shared/text/format';
import { SKILLS_LOCK_FILE } from '../../../shared/lock/skills-lock';
import { commitAdoption, type AdoptItem, type AdoptPlan, type AdoptScan } from '../../services/install/adopt';
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

/**
 * Past this many hand-written skills the review lists one line each (what it declares and
 * carries) instead of every full review, which at 150 skills ran to thousands of lines;
 * `--details` prints them all.
 */
const FULL_REVIEW_LIMIT = 8;

/** The adoption part of `import`: each hand-written skill with its review, and what skills-lock.json pins. */
function renderAdoption(plan: AdoptPlan, details: boolean): string {
  const lines: string[] = [];
  if (plan.items.length) {
    lines.push('', `— ${plural(plan.items.length, 'skill')} written by hand in the agents' folders —`);
    for (const i of plan.items) {
      if (i.review && details) lines.push(renderReview(i.review).trimEnd());
      if (i.status === 'adoptable')
        lines.push(
          `  → adopt ${i.name} into .kitbash/skills/${i.name}/ (from ${i.copies[0]})${details ? '' : ` · ${declares(i)}`}`,
        );
      else lines.push(`  ✗ ${i.name} (${i.copies.join(', ')}): not adopted — ${i.status}: ${i.reason ?? ''}`);
    }
    lines.push('', adoptionSummary(plan.items, details));
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

/** What one adoptable skill declares and carries, for the one-line listing. */
function declares(i: AdoptItem): string {
  const n = i.review?.nodes[0];
  if (!n) return 'no review';
  const declared = n.permissions.filter((p) => p.declared).map((p) => p.permission.replace(/^tool:/, 'tool '));
  const carried = [...new Set(n.powers.carried.map((p) => powerLabel(p.kind)))];
  return [
    declared.length ? `declares ${declared.join(', ')}` : 'declares no permissions',
    ...(carried.length ? [`carries ${carried.join(', ')}`] : []),
    ...(n.manifest.scripts.length ? [plural(n.manifest.scripts.length, 'script')] : []),
  ].join(' · ');
}

/** One line that adds the listing up, so a long dry run ends with what it would do. */
function adoptionSummary(items: readonly AdoptItem[], details: boolean): string {
  const count = (s: AdoptItem['status']) => items.filter((i) => i.status === s).length;
  const left = items.length - count('adoptable') - count('blocked');
  return `${plural(items.length, 'hand-written skill')}: ${count('adoptable')} to adopt, ${count('blocked')} blocked, ${left} left as ${left === 1 ? 'it is' : 'they are'}${details ? '' : ' — skillsmith import --details prints every review'}`;
}

/** Show the adoption review; with `write`, adopt what passed it (one journaled change), then recompile. */
export async function adoptSkills(
  scan: AdoptScan,
  opts: { write: boolean; compile: boolean; targets?: string; details?: boolean },
  io: CliIo,
): Promise<ExitCode> {
  const { plan } = scan;
  io.out(renderAdoption(plan, opts.details || plan.items.length <= FULL_REVIEW_LIMIT));
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
