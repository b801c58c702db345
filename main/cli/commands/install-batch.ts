import { renderReview, type InstallReview } from '../../../shared/lock/review';
import type { Refusal } from '../../../shared/lock/pick';
import { plural } from '../../../shared/text/format';
import { stageBatch, type StagedPick } from '../../services/install/batch';
import { withEnforcement } from '../../services/install/enforcement';
import type { SourceSkill } from '../../services/install/listing';
import { commitInstalls } from '../../services/install/stage';
import { quarantineInvalid } from '../../services/signing/review';
import type { Checkout } from '../../services/sources';
import { withProjectLock } from '../../services/workspace/project-lock';
import { recompileAfterChange } from '../../services/workspace/recompile';
import { EXIT, type CliIo, type ExitCode } from '../io';
import type { InstallFlags } from './install';
import { confirm, interactive } from './prompt';

interface Outcome {
  installed: string[];
  dependencies: string[];
  refused: Refusal[];
  skipped: string[];
}

/**
 * The picks of a source of many skills as one batch: every pick staged and reviewed (a
 * section each), one approval for all that are not blocked, one commit (one lock write),
 * one compile, then a summary. A blocked, clashing or unstageable pick is refused on its
 * own; the others still install. Exit 1 when any pick was refused.
 */
export async function installBatch(
  source: string,
  co: Checkout | undefined,
  chosen: { picks: readonly SourceSkill[]; refused: readonly Refusal[] },
  flags: InstallFlags,
  io: CliIo,
): Promise<ExitCode> {
  const note = flags.json ? io.err : io.out;
  const batch = await stageBatch(io.cwd, co, chosen.picks);
  const outcome: Outcome = { installed: [], dependencies: [], refused: [...chosen.refused], skipped: batch.skipped };
  try {
    const reviews: InstallReview[] = [];
    for (const r of [...batch.ready, ...batch.blocked].sort(byPick(chosen.picks))) {
      const review = await withEnforcement(r.staged.review);
      reviews.push(review);
      if (!flags.json) io.out(`\n== ${r.pick.name} (${r.pick.rel || '.'}) ==\n${renderReview(review)}`);
    }
    for (const b of batch.blocked) {
      for (const line of b.staged.review.blockers) io.err(`  ✗ ${line}\n`);
      for (const q of quarantineInvalid(
        io.cwd,
        b.staged.review.nodes,
        b.staged.nodes.map((n) => n.stagedDir),
      ))
        io.err(`  quarantined: ${q}/ (its signature fails verification; never delivered)\n`);
    }
    outcome.refused.push(...batch.refused);
    const ready = batch.ready;
    if (ready.length > 0 && !flags['dry-run'] && (await approved(ready, flags, io))) {
      await withProjectLock(io.cwd, `install ${source}`, async () => {
        const done = await commitInstalls(
          ready.map((r) => ({ staged: r.staged, approval: { integrity: r.staged.review.integrity } })),
          'install',
        );
        const picked = new Set(ready.map((r) => r.staged.review.root));
        outcome.installed = done.installed.filter((n) => picked.has(n));
        outcome.dependencies = done.installed.filter((n) => !picked.has(n));
        if (done.installed.length && !flags['no-compile']) await recompileAfterChange(io.cwd, note, 'install');
      });
    } else if (ready.length > 0 && !flags['dry-run']) {
      outcome.refused.push(...ready.map((r) => ({ name: r.pick.name, why: 'not approved' })));
    }
    if (flags.json)
      io.out(`${JSON.stringify({ reviews, ...outcome, ...(flags['dry-run'] ? { dryRun: true } : {}) }, null, 2)}\n`);
    note(summary(outcome, flags['dry-run'] ? ready.map((r) => r.pick.name) : undefined));
    return outcome.refused.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await batch.dispose();
  }
}

const byPick =
  (picks: readonly SourceSkill[]) =>
  (a: StagedPick, b: StagedPick): number =>
    picks.indexOf(a.pick) - picks.indexOf(b.pick);

/** The one approval of the batch: --approve (one pick), --yes, or the terminal's answer. */
async function approved(ready: readonly StagedPick[], flags: InstallFlags, io: CliIo): Promise<boolean> {
  if (flags.approve !== undefined) {
    const integrity = ready[0]!.staged.review.integrity;
    if (ready.length === 1 && flags.approve === integrity) return true;
    io.err(
      `not installed — --approve names ${flags.approve}, but what was fetched now hashes to ${integrity}. Review it again.\n`,
    );
    return false;
  }
  if (flags.yes) return true;
  const deps = new Set(
    ready.flatMap((r) =>
      r.staged.review.nodes.filter((n) => n.role === 'dependency' && !n.alreadyInstalled).map((n) => n.name),
    ),
  );
  const what = `${plural(ready.length, 'skill')}${deps.size ? ` and ${plural(deps.size, 'dependency', 'dependencies')}` : ''}`;
  if (interactive()) return confirm(`install ${what} reviewed above? [y/N] `);
  io.err(`not installed — no terminal to ask for approval. Rerun with --yes to install the ${what} reviewed above.\n`);
  return false;
}

/** What the batch did, in counts and names; `wouldInstall` for a dry run. */
export function summary(o: Outcome, wouldInstall?: readonly string[]): string {
  const lines: string[] = [];
  if (wouldInstall)
    lines.push(
      `dry run — nothing installed; would install ${plural(wouldInstall.length, 'skill')}${list(wouldInstall)}`,
    );
  else
    lines.push(
      `installed ${plural(o.installed.length, 'skill')}${list(o.installed)}${o.dependencies.length ? `; with ${plural(o.dependencies.length, 'dependency', 'dependencies')}${list(o.dependencies)}` : ''}`,
    );
  if (o.refused.length) {
    lines.push(`refused ${plural(o.refused.length, 'skill')}:`);
    for (const r of o.refused) lines.push(`  ${r.name} — ${r.why}`);
  }
  if (o.skipped.length) lines.push(`skipped ${plural(o.skipped.length, 'skill')} already installed${list(o.skipped)}`);
  return `\n${lines.join('\n')}\n`;
}

const list = (names: readonly string[]): string => (names.length ? `: ${names.join(', ')}` : '');
