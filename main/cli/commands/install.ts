import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderReview } from '../../../shared/lock/review';
import { probeEnforcement, withEnforcement } from '../../services/install/enforcement';
import type { SourceListing, SourceSkill } from '../../services/install/listing';
import { openInstallSource } from '../../services/install/marketplace-fetch';
import type { Checkout } from '../../services/sources';
import { pickSkills, type Refusal } from '../../../shared/lock/pick';
import { plural } from '../../../shared/text/format';
import { installBatch } from './install-batch';
import { listingLines, NO_SKILL, printListing } from './install-list';
import { commitInstall, stageInstall } from '../../services/install/stage';
import { recompileAfterChange } from '../../services/workspace/recompile';
import { withProjectLock } from '../../services/workspace/project-lock';
import { recover } from '../../services/workspace/txn';
import { quarantineInvalid, quarantineNotice } from '../../services/signing/review';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { ask, confirm, interactive } from './prompt';
import { CodedError } from '../../../shared/result';

const FLAGS = {
  yes: { type: 'boolean', short: 'y' },
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  approve: { type: 'string' },
  'no-compile': { type: 'boolean' },
  skill: { type: 'string', multiple: true },
  all: { type: 'boolean' },
  list: { type: 'boolean' },
} as const;
export type InstallFlags = ReturnType<typeof parseCommandArgs<typeof FLAGS>>['flags'];
const USAGE =
  'usage: skillsmith install <gh:owner/repo[/path][@ref] | owner/repo | git URL[#ref][:path] | file:path | marketplace.json path or URL | wellknown:https://host[#name]> [--list] [--all | --skill NAME...] [--yes] [--json] [--dry-run] [--approve <integrity>]';

/**
 * Which skills of the source to install: the source itself when it is one skill folder and
 * nothing is picked, else the --all or --skill picks (a terminal may pick from the list
 * instead). `code`: the listing was shown (or the pick was wrong) and the command ends there.
 */
async function chooseSkills(
  source: string,
  listing: SourceListing,
  flags: InstallFlags,
  io: CliIo,
): Promise<{ picks: SourceSkill[]; refused: Refusal[]; single: boolean } | { code: ExitCode }> {
  const names = flags.skill ?? [];
  if (listing.single && names.length === 0) return { picks: [...listing.skills], refused: [], single: true };
  if (listing.skills.length === 0) {
    io.err(`${source}: ${NO_SKILL}\n`);
    for (const n of listing.notes) io.err(`note: ${n}\n`);
    return { code: EXIT.failed };
  }
  let wanted: readonly string[] | 'all' = flags.all ? 'all' : names;
  if (wanted !== 'all' && wanted.length === 0) {
    io.err(`${source} holds ${plural(listing.skills.length, 'skill')}:\n${listingLines(listing)}`);
    if (!interactive() || flags.json) {
      io.err(
        `pick with --skill NAME (repeatable, globs allowed) or --all, e.g. skillsmith install ${source} --skill ${listing.skills.find((s) => !s.problem)?.name ?? listing.skills[0]!.name}\n`,
      );
      return { code: EXIT.usage };
    }
    wanted = (await ask('install which? (names or globs, separated by spaces or commas; empty to cancel) '))
      .split(/[\s,]+/)
      .filter(Boolean);
    if (wanted.length === 0) {
      io.err('aborted — nothing installed.\n');
      return { code: EXIT.failed };
    }
  }
  const picked = pickSkills(listing.skills, listing.collections, wanted);
  if (!picked.ok) {
    io.err(`${picked.error.message}\n`);
    return { code: EXIT.usage };
  }
  return { ...picked.value, single: false };
}

/**
 * `install <source> [--list] [--all | --skill NAME...] [--yes] [--json] [--dry-run] [--approve <integrity>]`:
 * stage → review → approve → commit. A source of many skills is listed (`--list`) or
 * installed as one batch of picks: one review, one approval, one commit, one compile.
 * `--yes` only answers the prompt; safety findings and [policy] still block. Without a
 * terminal, nothing is installed unless --yes or --approve is given.
 */
export async function runInstall(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const source = positionals[0];
  if (source === undefined || positionals.length > 1) throw new CodedError('invalid-request', USAGE);
  if (flags.all && flags.skill?.length)
    throw new CodedError('invalid-request', '--all and --skill pick differently — give one of them');
  // Finish any interrupted change first; then stage and ask without holding the project
  // lock (a clone or a person at the prompt can take minutes), and lock only to commit.
  if (!flags.list && existsSync(join(io.cwd, '.kitbash'))) {
    for (const line of await withProjectLock(io.cwd, `install ${source}`, () => recover(io.cwd)))
      io.err(`note: ${line}\n`);
  }
  // The sandbox probe behind the review's enforcement labels runs while the source is fetched.
  if (!flags.list) probeEnforcement();
  // One fetch: the listing and every pick are staged from the same checkout (a marketplace's
  // plugins in other repositories: one clone each).
  const opened = await openInstallSource(source, io.cwd);
  const { co, listing } = opened;
  try {
    if (flags.list) return printListing(source, listing, flags, io);
    const chosen = await chooseSkills(source, listing, flags, io);
    if ('code' in chosen) return chosen.code;
    if (chosen.single && co) return await installOne(source, co, flags, io);
    if (chosen.picks.length + chosen.refused.length > 1 && flags.approve !== undefined) {
      io.err('--approve names one review — with several picks, install them one at a time or use --yes\n');
      return EXIT.usage;
    }
    return await installBatch(source, co, chosen, flags, io);
  } finally {
    await opened.dispose();
  }
}

/** The single-skill install: stage, review, approve, commit, recompile. */
async function installOne(source: string, checkout: Checkout, flags: InstallFlags, io: CliIo): Promise<ExitCode> {
  const note = flags.json ? io.err : io.out;
  const staged = await stageInstall(io.cwd, source, { checkout, ...(flags['no-compile'] ? { compile: false } : {}) });
  if (process.env.SKILLSMITH_TIMINGS === '1') io.err(`timings: ${JSON.stringify(staged.timings)}\n`);
  try {
    const review = await withEnforcement(staged.review);
    io.out(flags.json ? `${JSON.stringify(review, null, 2)}\n` : renderReview(review));
    if (review.blockers.length > 0) {
      for (const b of review.blockers) io.err(`  ✗ ${b}\n`);
      for (const q of quarantineInvalid(
        io.cwd,
        review.nodes,
        staged.nodes.map((n) => n.stagedDir),
      ))
        io.err(`  ${quarantineNotice(q)}\n`);
      io.err(
        'blocked — a skill in this install fails a non-bypassable safety check or the [policy] in kitbash.toml; nothing installed.\n',
      );
      return EXIT.failed;
    }
    if (flags['dry-run']) {
      note('dry run — nothing installed.\n');
      return EXIT.ok;
    }
    const rootNode = review.nodes[0]!;
    const extra = review.nodes.filter((n) => n.role === 'dependency' && !n.alreadyInstalled).length;
    const what = `${rootNode.name}@${rootNode.version}${extra ? ` and ${extra} dependenc${extra === 1 ? 'y' : 'ies'}` : ''}`;
    let approved: string | undefined;
    if (flags.approve !== undefined) {
      if (flags.approve !== review.integrity) {
        io.err(
          `not installed — --approve names ${flags.approve}, but what was fetched now hashes to ${review.integrity}. Review it again.\n`,
        );
        return EXIT.failed;
      }
      approved = flags.approve;
    } else if (flags.yes) {
      approved = review.integrity;
    } else if (interactive()) {
      if (await confirm(`install ${what}? [y/N] `)) approved = review.integrity;
      else {
        io.err('aborted — nothing installed.\n');
        return EXIT.failed;
      }
    } else {
      io.err(
        `not installed — no terminal to ask for approval. Rerun with --yes, or with --approve ${review.integrity} to install exactly this review.\n`,
      );
      return EXIT.failed;
    }
    const integrity = approved;
    return await withProjectLock(io.cwd, `install ${source}`, async () => {
      const result = await commitInstall(staged, { integrity });
      note(`installed ${what}\n  pinned in kitbash.lock\n`);
      if (result.installed.length && !flags['no-compile'])
        await recompileAfterChange(io.cwd, note, 'install', staged.planned);
      return EXIT.ok;
    });
  } finally {
    await staged.dispose();
  }
}
