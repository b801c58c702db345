import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderReview } from '../../../shared/lock/review';
import { withEnforcement } from '../../services/install/enforcement';
import { commitInstall, stageInstall } from '../../services/install/stage';
import { recompileAfterChange } from '../../services/workspace/recompile';
import { withProjectLock } from '../../services/workspace/project-lock';
import { recover } from '../../services/workspace/txn';
import { parseCommandArgs } from '../args';
import { UsageError, type CliIo, type ExitCode } from '../io';
import { confirm, interactive } from './prompt';

const FLAGS = { yes: { type: 'boolean', short: 'y' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, approve: { type: 'string' }, 'no-compile': { type: 'boolean' } } as const;

/**
 * `install <source> [--yes] [--json] [--dry-run] [--approve <integrity>]`: stage → review →
 * approve → commit. `--yes` only answers the prompt; safety findings and [policy] still
 * block. Without a terminal, nothing is installed unless --yes or --approve is given.
 */
export async function runInstall(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const source = positionals[0];
  if (source === undefined || positionals.length > 1) throw new UsageError('usage: skillsmith install <gh:owner/repo[/path][@ref] | owner/repo | git URL[#ref][:path] | file:path> [--yes] [--json] [--dry-run] [--approve <integrity>]');
  const note = flags.json ? io.err : io.out;
  // Finish any interrupted change first; then stage and ask without holding the project
  // lock (a clone or a person at the prompt can take minutes), and lock only to commit.
  if (existsSync(join(io.cwd, '.kitbash'))) {
    for (const line of await withProjectLock(io.cwd, `install ${source}`, () => recover(io.cwd))) io.err(`note: ${line}\n`);
  }
  const staged = stageInstall(io.cwd, source);
  if (process.env.SKILLSMITH_TIMINGS === '1') io.err(`timings: ${JSON.stringify(staged.timings)}\n`);
  try {
    const review = await withEnforcement(staged.review);
    io.out(flags.json ? `${JSON.stringify(review, null, 2)}\n` : renderReview(review));
    if (review.blockers.length > 0) {
      for (const b of review.blockers) io.err(`  ✗ ${b}\n`);
      io.err('blocked — a skill in this install fails a non-bypassable safety check or the [policy] in kitbash.toml; nothing installed.\n');
      return 1;
    }
    if (flags['dry-run']) {
      note('dry run — nothing installed.\n');
      return 0;
    }
    const rootNode = review.nodes[0]!;
    const extra = review.nodes.filter((n) => n.role === 'dependency' && !n.alreadyInstalled).length;
    const what = `${rootNode.name}@${rootNode.version}${extra ? ` and ${extra} dependenc${extra === 1 ? 'y' : 'ies'}` : ''}`;
    let approved: string | undefined;
    if (flags.approve !== undefined) {
      if (flags.approve !== review.integrity) {
        io.err(`not installed — --approve names ${flags.approve}, but what was fetched now hashes to ${review.integrity}. Review it again.\n`);
        return 1;
      }
      approved = flags.approve;
    } else if (flags.yes) {
      approved = review.integrity;
    } else if (interactive()) {
      if (await confirm(`install ${what}? [y/N] `)) approved = review.integrity;
      else {
        io.err('aborted — nothing installed.\n');
        return 1;
      }
    } else {
      io.err(`not installed — no terminal to ask for approval. Rerun with --yes, or with --approve ${review.integrity} to install exactly this review.\n`);
      return 1;
    }
    const integrity = approved;
    return await withProjectLock(io.cwd, `install ${source}`, async () => {
      const result = commitInstall(staged, { integrity });
      note(`installed ${what}\n  pinned in kitbash.lock\n`);
      if (result.installed.length && !flags['no-compile']) await recompileAfterChange(io.cwd, note, 'install');
      return 0;
    });
  } finally {
    staged.dispose();
  }
}
