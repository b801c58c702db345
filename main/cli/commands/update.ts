import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderReview } from '../../../shared/lock/review';
import { unifiedDiff } from '../../../shared/text/diff';
import { readLockAsyncOrThrow } from '../../services/lock';
import { withEnforcement } from '../../services/install/enforcement';
import { commitInstall } from '../../services/install/stage';
import { checkUpdate } from '../../services/install/update';
import { backupSkill, conflictsOf } from '../../services/install/merge';
import { withProjectLock } from '../../services/workspace/project-lock';
import { recompileAfterChange, type PlannedCompile } from '../../services/workspace/recompile';
import { recover } from '../../services/workspace/txn';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { confirm, interactive } from './prompt';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { CodedError, isCoded } from '../../../shared/result';

const FLAGS = {
  yes: { type: 'boolean', short: 'y' },
  approve: { type: 'string' },
  json: { type: 'boolean' },
  'no-compile': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  ours: { type: 'boolean' },
  theirs: { type: 'boolean' },
} as const;

const USAGE =
  'usage: skillsmith update [<skill-name>] [--yes] [--approve <integrity>] [--dry-run] [--ours | --theirs] [--json] [--no-compile]';

/**
 * `update [name] [--yes] [--approve <integrity>] [--dry-run] [--ours|--theirs] [--json]`: refetch pinned sources,
 * show the review diff with escalations, apply through the install path. `--yes` applies an update that asks for
 * nothing more; one that escalates (new hooks, tool grants, scripts, MCP servers, …) is applied only with
 * `--approve` naming its review. A locally edited copy is merged with upstream, backed up first (SPEC D300–D303);
 * `--dry-run` shows the reviews and writes nothing.
 */
export async function runUpdate(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length > 1) throw new CodedError('invalid-request', USAGE);
  if (flags.ours && flags.theirs)
    throw new CodedError('invalid-request', `--ours and --theirs exclude each other\n${USAGE}`);
  const prefer = flags.ours ? 'ours' : flags.theirs ? 'theirs' : undefined;
  const dry = flags['dry-run'] === true;
  const name = positionals[0];
  const say = flags.json ? io.err : io.out;
  const command = `update${name ? ` ${name}` : ''}`;
  // Recover under the lock, then fetch, review and ask without it; each commit takes it again.
  if (!dry && existsSync(join(io.cwd, '.kitbash')))
    for (const line of await withProjectLock(io.cwd, command, () => recover(io.cwd))) io.err(`note: ${line}\n`);
  const lock = (await readLockAsyncOrThrow(io.cwd)).entries;
  let entries = [...lock].sort((a, b) => (a.name < b.name ? -1 : 1));
  if (name !== undefined) {
    entries = entries.filter((e) => e.name === name);
    if (!entries.length) {
      io.err(
        `${name} is not pinned in kitbash.lock.\n${lock.length ? `  pinned: ${lock.map((e) => e.name).join(', ')}` : '  no skills installed yet.'}\n`,
      );
      return EXIT.failed;
    }
  }
  if (!entries.length) {
    say('no skills installed — nothing to update.\n');
    return EXIT.ok;
  }
  let updated = 0;
  let current = 0;
  let skipped = 0;
  let failed = 0;
  let conflicted = 0;
  const reviews: unknown[] = [];
  // The plan made with the last update applied: the recompile uses it if nothing moved since.
  let planned: PlannedCompile | undefined;
  for (const entry of entries) {
    const c = await checkUpdate(io.cwd, entry, {
      ...(flags['no-compile'] || dry ? { compile: false } : {}),
      ...(prefer ? { prefer } : {}),
    });
    if (c.kind === 'failed') {
      io.err(`✗ ${c.message}\n`);
      failed++;
      continue;
    }
    if (c.kind === 'up-to-date') {
      say(c.note ? `${c.note}\n` : `${entry.name}@${entry.version} is up to date\n`);
      current++;
      continue;
    }
    try {
      const review = await withEnforcement(c.review);
      reviews.push(review);
      if (!flags.json) {
        io.out(renderReview(review));
        for (const f of c.files)
          if (!f.opaque) {
            const d = unifiedDiff(f.path, f.before ?? '', f.after ?? '');
            if (d) io.out(`\n${d}`);
          }
      }
      if (review.blockers.length) {
        for (const b of review.blockers) io.err(`  ✗ ${b}\n`);
        io.err(
          `✗ ${escapeTerminal(entry.name)}: blocked — the update fails a non-bypassable safety check or [policy]; nothing was changed.\n`,
        );
        failed++;
        continue;
      }
      const to = review.nodes[0]!.version;
      if (dry) {
        say(`dry run: ${entry.name} not updated — nothing written\n`);
        skipped++;
        continue;
      }
      const escalations = (review.changes ?? []).filter((x) => x.escalation).map((x) => x.field);
      // --approve names exactly this review; --yes approves only an update that asks for nothing more.
      const approved = flags.approve !== undefined && flags.approve === review.integrity;
      if (flags.approve !== undefined && !approved && (name !== undefined || entries.length === 1)) {
        io.err(
          `${entry.name}: not applied — --approve names ${flags.approve}, but what was fetched now hashes to ${review.integrity}. Review it again.\n`,
        );
        failed++;
        continue;
      }
      let yes = approved || (flags.yes === true && escalations.length === 0);
      if (!yes && flags.yes === true && escalations.length > 0) {
        io.err(
          `${entry.name}: not applied — the update escalates (${[...new Set(escalations)].join(', ')}), and --yes does not approve an escalation. Read the review, then rerun with --approve ${review.integrity}.\n`,
        );
        skipped++;
        continue;
      }
      if (!yes) {
        if (!interactive()) {
          io.err(
            `${entry.name}: not applied — no terminal to ask; rerun with ${escalations.length ? '' : '--yes, or with '}--approve ${review.integrity} to apply exactly this review.\n`,
          );
          skipped++;
          continue;
        }
        yes = await confirm(`update ${entry.name} to ${to}? [y/N] `);
        if (!yes) {
          say(`skipped ${entry.name} — nothing changed.\n`);
          skipped++;
          continue;
        }
      }
      // A refused commit fails this skill only; a project another process holds stops the command.
      const refused = await withProjectLock(io.cwd, command, async () => {
        try {
          // The edited copy is kept before anything replaces it; an unedited one is the source's at its commit.
          if (c.localEdits) say(`  backed up to ${await backupSkill(io.cwd, entry.name, c.installedTree)}\n`);
          await commitInstall(c.staged, { integrity: review.integrity }, 'update');
          return undefined;
        } catch (e) {
          if (isCoded(e, 'forbidden')) return e;
          throw e;
        }
      });
      if (refused) {
        io.err(`✗ ${entry.name}: ${refused.message}\n`);
        failed++;
        continue;
      }
      const conflicts = c.merge ? conflictsOf(c.merge) : [];
      if (conflicts.length) conflicted++;
      say(
        conflicts.length
          ? `updated ${entry.name}@${to} with conflicts left in ${conflicts.join(', ')}\n  resolve them, then run skillsmith update ${entry.name} to review and pin the result — until then it is not delivered\n`
          : `updated ${entry.name}@${to}\n  re-pinned in kitbash.lock\n`,
      );
      updated++;
      planned = c.staged.planned;
    } finally {
      await c.staged.dispose();
    }
  }
  if (flags.json) io.out(`${JSON.stringify(reviews, null, 2)}\n`);
  say(
    `${updated} updated${conflicted ? ` (${conflicted} with conflicts to resolve)` : ''} · ${current} up to date${skipped ? ` · ${skipped} not applied` : ''}${failed ? ` · ${failed} failed` : ''}\n`,
  );
  if (updated && !flags['no-compile'])
    await withProjectLock(io.cwd, command, () => recompileAfterChange(io.cwd, say, 'update', planned));
  return failed || conflicted || (skipped && !dry) ? EXIT.failed : EXIT.ok;
}
