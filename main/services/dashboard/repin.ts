import { join } from 'node:path';
import type { RepinResult } from '../../../shared/ipc/channels/lock';
import type { ReviewView } from '../../../shared/ipc/channels/install';
import { IMPORT_SOURCE, type LockEntry } from '../../../shared/lock/lockfile';
import type { InstallReview } from '../../../shared/lock/review';
import { CodedError, isCoded } from '../../../shared/result';
import { withEnforcement } from '../install/enforcement';
import { readLockAsyncOrThrow } from '../lock';
import { installedSkillsAsync, SKILLS_DIR } from '../skills/locate';
import { withProjectLock } from '../workspace/project-lock';
import { recompileAfterChange } from '../workspace/recompile';
import { recover } from '../workspace/txn';
import { standingDelta, toView } from '../install/review-view';
import type { ReviewStore } from '../install/reviews';
import { commitInstall, stageInstall, type StagedInstall } from '../install/stage';

const EXPIRED = 'this re-pin review has expired or was already used — review the skill again';

/**
 * Re-pinning from the dashboard: an installed skill whose files were edited (drift), or one
 * never pinned, is reviewed exactly as an install of its folder as it is now — the same
 * checks, findings, permissions and blocking rules, shown in the same review — and, once
 * approved by the review's hash, committed through the install path: kitbash.lock then
 * pins these files (as `import:local`, SPEC.md D155). Reviews live in the session's review
 * store, so the review's file browser and exception form work as for an install.
 */
export class RepinFlow {
  /** Reviews this flow made: an install or update review is never approved here. */
  private readonly mine = new Set<string>();

  constructor(private readonly reviews: ReviewStore) {}

  async review(project: string, dir: string): Promise<ReviewView> {
    const { staged, review } = await stageRepin(project, dir);
    const id = this.reviews.putUpdate(project, IMPORT_SOURCE, review, staged);
    this.mine.add(id);
    return toView(id, review, staged, await standingDelta(staged));
  }

  async apply(project: string, id: string, integrity: string): Promise<RepinResult> {
    const r = this.mine.has(id) ? this.reviews.get(id) : undefined;
    if (!r) {
      this.mine.delete(id);
      throw new CodedError('not-found', EXPIRED);
    }
    if (r.project !== project)
      throw new CodedError('forbidden', 'this review was made for another project — review the skill again');
    if (integrity !== r.review.integrity)
      throw new CodedError(
        'forbidden',
        `the approval names ${integrity}, but the review is ${r.review.integrity} — nothing pinned`,
      );
    const dir = r.review.root;
    // Read the folder again: an approval holds only for the bytes, and the verdict, that were shown.
    const fresh = await stageRepin(project, dir);
    const verdict = (x: InstallReview): string => `${x.integrity}\n${x.blockers.join('\n')}`;
    if (verdict(fresh.review) !== verdict(r.review)) {
      this.drop(id);
      const next = this.reviews.putUpdate(project, IMPORT_SOURCE, fresh.review, fresh.staged);
      this.mine.add(next);
      return {
        outcome: 'changed',
        message: `${dir} changed since you reviewed it (or its checks did) — nothing pinned; read the new review`,
        review: toView(next, fresh.review, fresh.staged, await standingDelta(fresh.staged)),
      };
    }
    await fresh.staged.dispose();
    const taken = this.reviews.take(id)!;
    this.mine.delete(id);
    const notes: string[] = [];
    try {
      await withProjectLock(project, `re-pin (app) ${dir}`, async () => {
        notes.push(...(await recover(project)));
        // The commit refuses a blocked review and files that changed since, whatever was asked.
        await commitInstall(taken.staged, { integrity }, 're-pin');
        await recompileAfterChange(project, (t) => notes.push(t.trim()), 're-pin', taken.staged.planned);
      });
    } catch (e) {
      throw refusal(e);
    } finally {
      await taken.staged.dispose();
    }
    return { outcome: 'pinned', name: dir, version: taken.review.nodes[0]!.version, notes };
  }

  private drop(id: string): void {
    this.mine.delete(id);
    this.reviews.drop(id);
  }
}

/** Stage the installed folder `dir` as an install of itself, pinned as `import:local`. */
async function stageRepin(project: string, dir: string): Promise<{ staged: StagedInstall; review: InstallReview }> {
  if (!(await installedSkillsAsync(project)).some((s) => s.nameHint === dir && s.kind === 'folder'))
    throw new CodedError('not-found', `${dir} is not an installed skill folder`);
  let prior: LockEntry | undefined;
  let staged: StagedInstall;
  try {
    prior = (await readLockAsyncOrThrow(project)).entries.find((e) => e.name === dir);
    staged = await stageInstall(project, `file:${join(project, SKILLS_DIR, dir)}`, {
      replacing: dir,
      lockSource: IMPORT_SOURCE,
    });
  } catch (e) {
    throw refusal(e);
  }
  try {
    const review = await withEnforcement({
      ...staged.review,
      notices: [...notices(dir, prior), ...staged.review.notices],
    });
    return { staged: pinnedAsImport(staged, prior, review), review };
  } catch (e) {
    await staged.dispose();
    throw refusal(e);
  }
}

/** What the reviewer must know besides the checks: what the pin was, and what re-pinning gives up. */
function notices(dir: string, prior: LockEntry | undefined): string[] {
  if (!prior) return [`${dir} is not in kitbash.lock: approving pins these files as import:local`];
  return [
    `${dir}'s files differ from what kitbash.lock pinned (${prior.integrity.slice(0, 19)}… from ${prior.source}): approving pins them as they are now`,
    ...(prior.source !== IMPORT_SOURCE
      ? [
          `the lock will name import:local instead of ${prior.source}: update no longer refetches it (to go back to it, remove the skill and install ${prior.source} again)`,
        ]
      : []),
  ];
}

/**
 * The staged install with the skill's lock entry as a re-pin writes it: `import:local`, no
 * resolved source or commit (the files are no longer the source's), what depends on it kept.
 */
function pinnedAsImport(staged: StagedInstall, prior: LockEntry | undefined, review: InstallReview): StagedInstall {
  const [root, ...rest] = staged.nodes;
  // The root is always staged afresh, so it always has an entry; only installed dependencies may lack one.
  if (!root?.entry) throw new CodedError('internal', 're-pin: the review staged no skill to pin');
  const { resolved: _resolved, commit: _commit, ...entry } = root.entry;
  const kept: LockEntry = {
    ...entry,
    source: IMPORT_SOURCE,
    ...(prior?.requested ? { requested: prior.requested } : {}),
    ...(prior?.direct === false ? { direct: false } : {}),
  };
  return { ...staged, review, nodes: [{ ...root, entry: kept }, ...rest] };
}

/** A failure from below as one line naming the step, with its own code; an uncoded one is `internal`. */
function refusal(e: unknown): CodedError {
  const line = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
  return new CodedError(isCoded(e) ? e.code : 'internal', line.startsWith('re-pin: ') ? line : `re-pin: ${line}`);
}
