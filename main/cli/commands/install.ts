import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderReview } from '../../../shared/lock/review';
import { probeEnforcement, withEnforcement } from '../../services/install/enforcement';
import { listCheckout, pickSkills, type SourceSkill } from '../../services/install/listing';
import { checkoutAt, openSource, type Checkout } from '../../services/sources';
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
} as const;
type Flags = ReturnType<typeof parseCommandArgs<typeof FLAGS>>['flags'];
const USAGE =
  'usage: skillsmith install <gh:owner/repo[/path][@ref] | owner/repo | git URL[#ref][:path] | file:path> [--skill NAME]... [--yes] [--json] [--dry-run] [--approve <integrity>]';

function listLines(skills: readonly SourceSkill[]): string {
  const width = Math.max(...skills.map((s) => s.name.length));
  return skills
    .map(
      (s) =>
        `  ${s.name.padEnd(width)}  ${s.problem ? `(cannot be installed: ${s.problem})` : s.description.split('\n')[0]!.slice(0, 100)}\n`,
    )
    .join('');
}

/**
 * Which skills of the source to install: the source itself when it is one skill folder and
 * no --skill is given, else the --skill picks (a terminal may pick from the list instead).
 * `code`: the listing was shown (or the pick was wrong) and the command ends there.
 */
async function chooseSkills(
  source: string,
  co: Checkout,
  flags: Flags,
  io: CliIo,
): Promise<{ picks: SourceSkill[] } | { code: ExitCode }> {
  const names = flags.skill ?? [];
  const listing = await listCheckout(co, source);
  if (listing.single && names.length === 0) return { picks: [...listing.skills] };
  if (listing.skills.length === 0) {
    io.err(
      `${source}: no skill found — no SKILL.md at its root, in skills/*/, plugins/*/skills/*/, */ or named by .claude-plugin/marketplace.json\n`,
    );
    return { code: EXIT.failed };
  }
  let wanted = names;
  if (wanted.length === 0) {
    io.err(`${source} holds ${listing.skills.length} skills:\n${listLines(listing.skills)}`);
    if (!interactive() || flags.json) {
      io.err(
        `pick with --skill NAME (repeatable), e.g. skillsmith install ${source} --skill ${listing.skills.find((s) => !s.problem)?.name ?? listing.skills[0]!.name}\n`,
      );
      return { code: EXIT.usage };
    }
    wanted = (await ask('install which? (names, separated by spaces or commas; empty to cancel) '))
      .split(/[\s,]+/)
      .filter(Boolean);
    if (wanted.length === 0) {
      io.err('aborted — nothing installed.\n');
      return { code: EXIT.failed };
    }
  }
  const picked = pickSkills(listing, wanted);
  if (!picked.ok) {
    io.err(`${picked.error.message}\n`);
    return { code: EXIT.usage };
  }
  return { picks: picked.value };
}

/**
 * `install <source> [--skill NAME]... [--yes] [--json] [--dry-run] [--approve <integrity>]`:
 * stage → review → approve → commit, once per picked skill of a multi-skill source.
 * `--yes` only answers the prompt; safety findings and [policy] still block. Without a
 * terminal, nothing is installed unless --yes or --approve is given.
 */
export async function runInstall(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const source = positionals[0];
  if (source === undefined || positionals.length > 1) throw new CodedError('invalid-request', USAGE);
  // Finish any interrupted change first; then stage and ask without holding the project
  // lock (a clone or a person at the prompt can take minutes), and lock only to commit.
  if (existsSync(join(io.cwd, '.kitbash'))) {
    for (const line of await withProjectLock(io.cwd, `install ${source}`, () => recover(io.cwd)))
      io.err(`note: ${line}\n`);
  }
  // The sandbox probe behind the review's enforcement labels runs while the source is fetched.
  probeEnforcement();
  // One fetch: the listing and every pick are staged from the same checkout.
  const co = await openSource(source, io.cwd);
  try {
    const chosen = await chooseSkills(source, co, flags, io);
    if ('code' in chosen) return chosen.code;
    if (chosen.picks.length > 1 && flags.approve !== undefined) {
      io.err('--approve names one review — with several --skill picks, install them one at a time or use --yes\n');
      return EXIT.usage;
    }
    let worst: ExitCode = EXIT.ok;
    for (const pick of chosen.picks) {
      if (chosen.picks.length > 1) (flags.json ? io.err : io.out)(`\n== ${pick.source} ==\n`);
      const code = await installOne(
        pick.source,
        pick.rel === '' ? co : checkoutAt(co, pick.rel, pick.source),
        flags,
        io,
      );
      if (code !== EXIT.ok) worst = code;
    }
    return worst;
  } finally {
    await co.dispose();
  }
}

/** The single-skill install: stage, review, approve, commit, recompile. */
async function installOne(source: string, checkout: Checkout, flags: Flags, io: CliIo): Promise<ExitCode> {
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
