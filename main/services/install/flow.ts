import { plural } from '../../../shared/text/format';
import type { ReviewView, UpdateCheck } from '../../../shared/ipc/channels/install';
import { unifiedDiff } from '../../../shared/text/diff';
import type { InstallReview } from '../../../shared/lock/review';
import { CodedError, fail, isCoded, ok, type Result } from '../../../shared/result';
import { readLockAsyncOrThrow } from '../lock';
import { installedSkillsAsync, SKILLS_DIR } from '../skills/locate';
import { withProjectLock } from '../workspace/project-lock';
import { recompileAfterChange } from '../workspace/recompile';
import { recover } from '../workspace/txn';
import { quarantineInvalid, quarantineNotice } from '../signing/review';
import { withEnforcement } from './enforcement';
import { applyRemove, planRemove } from './remove';
import { compileWithout, standingDelta, toView } from './review-view';
import type { LiveReview, ReviewStore } from './reviews';
import { commitInstall } from './stage';
import { checkUpdate } from './update';
import { backupSkill } from './merge';
import { readSkillTreeAsync } from '../skills/reader';
import { join } from 'node:path';

/** Reports a step of a long call to the window; resolves once the event is on its way. */
export type Progress = (label: string, done: number, total: number | null) => Promise<void>;

const EXPIRED = 'this review has expired or was already used — review the source again';
const MAX_DIFF = 20_000;
const MAX_DIFFS = 200_000;

/**
 * The approval dialog's install, update and remove steps for one renderer session. Every
 * review lives in the session's `ReviewStore`, bound to the project it was made for; the
 * renderer names it by id and the hash it was shown. Approval is refused for a blocked
 * review whatever the renderer sends (and the workspace service's commit refuses it again).
 */
export class InstallFlow {
  constructor(private readonly reviews: ReviewStore) {}

  /** The staged copy behind a live review (install or update) without taking it. */
  live(project: string, id: string): LiveReview {
    const r = this.reviews.get(id);
    if (!r) throw new CodedError('not-found', EXPIRED);
    if (r.project !== project)
      throw new CodedError('forbidden', 'this review was made for another project — review the source again');
    return r;
  }

  async begin(project: string, source: string, progress: Progress): Promise<ReviewView> {
    await progress(`fetching ${source} and checking it`, 0, 2);
    let begun: Awaited<ReturnType<ReviewStore['beginInstall']>>;
    try {
      begun = await this.reviews.beginInstall(project, source);
    } catch (e) {
      throw asCodedError(e, 'install');
    }
    await progress('planning the standing cost per target', 1, 2);
    const staged = this.reviews.stagedOf(begun.id);
    // A skill whose signature fails is kept for inspection, as the CLI keeps it (SPEC D213).
    const kept = quarantineInvalid(
      project,
      begun.review.nodes,
      (staged?.nodes ?? []).map((n) => n.stagedDir),
    );
    const review = kept.length
      ? { ...begun.review, notices: [...begun.review.notices, ...kept.map(quarantineNotice)] }
      : begun.review;
    const view = toView(begun.id, review, staged, await standingDelta(staged));
    await progress('review ready', 2, 2);
    return view;
  }

  async approve(project: string, id: string, integrity: string, progress: Progress) {
    const pending = this.pending(project, id, 'install');
    refuseUnapprovable(pending.review, integrity);
    // Fetch the source again: an approval holds only for the bytes that were reviewed.
    await progress(`fetching ${pending.source} again to check it has not changed`, 0, 3);
    let fresh: Awaited<ReturnType<ReviewStore['beginInstall']>>;
    try {
      fresh = await this.reviews.beginInstall(pending.project, pending.source);
    } catch (e) {
      throw asCodedError(e, 'install (re-checking the source)');
    }
    if (fresh.review.integrity !== pending.review.integrity) {
      this.reviews.drop(id);
      await progress('the source changed — new review', 1, 3);
      return {
        outcome: 'changed' as const,
        message: `the source changed since you reviewed it (was ${pending.review.integrity.slice(0, 19)}…, now ${fresh.review.integrity.slice(0, 19)}…) — nothing installed; read the new review`,
        review: toView(
          fresh.id,
          fresh.review,
          this.reviews.stagedOf(fresh.id),
          await standingDelta(this.reviews.stagedOf(fresh.id)),
        ),
      };
    }
    this.reviews.drop(fresh.id);
    await progress('installing and compiling', 2, 3);
    try {
      const done = await this.reviews.approveInstall(id, integrity);
      return { outcome: 'installed' as const, installed: done.installed, notes: done.notes };
    } catch (e) {
      throw asCodedError(e, 'install');
    } finally {
      await progress('done', 3, 3);
    }
  }

  cancel(id: string): boolean {
    return this.reviews.get(id) !== undefined && this.reviews.drop(id);
  }

  /** Refetch a pinned skill and build its update review (kept until applied, cancelled or expired). */
  async checkUpdate(project: string, name: string, progress: Progress): Promise<UpdateCheck> {
    const entry = (await readLockAsyncOrThrow(project)).entries.find((e) => e.name === name);
    if (!entry) throw new CodedError('not-found', `${name} is not pinned in kitbash.lock — nothing to update`);
    await progress(`refetching ${entry.source}`, 0, 2);
    const c = await checkUpdate(project, entry);
    if (c.kind === 'failed') throw new CodedError('invalid-input', `update: ${c.message.split('\n')[0]}`);
    if (c.kind === 'up-to-date') {
      await progress('up to date', 2, 2);
      return {
        status: 'up-to-date' as const,
        name: entry.name,
        version: entry.version,
        ...(c.note ? { note: c.note } : {}),
      };
    }
    let review: InstallReview;
    try {
      review = await withEnforcement(c.review);
    } catch (e) {
      await c.staged.dispose();
      throw asCodedError(e, 'update');
    }
    await progress('building the review diff', 1, 2);
    let budget = MAX_DIFFS;
    const diffs: NonNullable<ReviewView['diffs']> = [];
    for (const f of c.files) {
      if (f.opaque || budget <= 0) continue;
      let d = unifiedDiff(f.path, f.before ?? '', f.after ?? '');
      if (!d) continue;
      if (d.length > MAX_DIFF) d = `${d.slice(0, MAX_DIFF)}\n… (diff cut at ${MAX_DIFF} characters)\n`;
      budget -= d.length;
      diffs.push({ path: f.path, diff: d });
    }
    const id = this.reviews.putUpdate(project, entry.source, review, c.staged);
    const view = toView(id, review, c.staged, await standingDelta(c.staged), diffs);
    await progress('review ready', 2, 2);
    return {
      status: 'changed' as const,
      name: entry.name,
      from: entry.version,
      localEdits: c.localEdits,
      ...(c.merge ? { merge: { based: c.merge.based, files: [...c.merge.files] } } : {}),
      review: view,
    };
  }

  async applyUpdate(project: string, id: string, integrity: string) {
    const pending = this.pending(project, id, 'update');
    refuseUnapprovable(pending.review, integrity);
    // Refetch: the approval holds only for the bytes that were reviewed.
    const again = await this.checkUpdate(pending.project, pending.review.root, () => Promise.resolve());
    if (again.status !== 'changed' || again.review.integrity !== pending.review.integrity) {
      this.reviews.drop(id);
      return {
        outcome: 'changed' as const,
        message: `the pinned source changed since you reviewed the update (was ${pending.review.integrity.slice(0, 19)}…, now ${again.status === 'changed' ? `${again.review.integrity.slice(0, 19)}…` : 'the installed version'}) — nothing applied; read the new review`,
        check: again,
      };
    }
    this.reviews.drop(again.review.id);
    const { staged } = this.reviews.take(id)!;
    const notes: string[] = [];
    try {
      await withProjectLock(pending.project, `update (app) ${pending.review.root}`, async () => {
        notes.push(...(await recover(pending.project)));
        // An edited copy is kept before the merge replaces it (SPEC D303).
        if (again.localEdits) {
          const name = pending.review.root;
          const tree = await readSkillTreeAsync(join(pending.project, SKILLS_DIR, name), name);
          if (!tree.ok) throw CodedError.of(tree.error);
          notes.push(`backed up to ${await backupSkill(pending.project, name, tree.value)}`);
        }
        await commitInstall(staged, { integrity }, 'update');
        const conflicts = (again.merge?.files ?? []).filter((f) => f.outcome === 'conflict').map((f) => f.path);
        if (conflicts.length)
          notes.push(
            `Conflicts left in ${conflicts.join(', ')}: resolve them, then update again to review and pin the result — not delivered until then.`,
          );
        await recompileAfterChange(pending.project, (t) => notes.push(t.trim()), 'update', staged.planned);
      });
    } catch (e) {
      throw asCodedError(e, 'update');
    } finally {
      await staged.dispose();
    }
    return {
      outcome: 'updated' as const,
      updated: pending.review.root,
      version: pending.review.nodes[0]!.version,
      notes,
    };
  }

  async planRemove(project: string, name: string) {
    if (!(await installedSkillsAsync(project)).some((s) => s.nameHint === name))
      throw new CodedError('not-found', `${name} is not installed`);
    try {
      const plan = await planRemove(project, name);
      const entry = (await readLockAsyncOrThrow(project)).entries.find((e) => e.name === name);
      return {
        name,
        version: entry?.version ?? null,
        dependents: [...plan.dependents],
        orphans: [...plan.orphans],
        deletes: [name, ...plan.orphans].map((n) => `${SKILLS_DIR.split('\\').join('/')}/${n}/`),
        compile: await compileWithout(project, [name]),
      };
    } catch (e) {
      throw asCodedError(e, 'remove');
    }
  }

  async remove(project: string, name: string, orphans: readonly string[]) {
    const notes: string[] = [];
    // The flow's own refusals come back as a failure; only what breaks below is wrapped.
    let done: Result<{ removed: string[]; notes: string[] }>;
    try {
      done = await withProjectLock(project, `remove (app) ${name}`, async () => {
        notes.push(...(await recover(project)));
        if (!(await installedSkillsAsync(project)).some((s) => s.nameHint === name))
          return fail('not-found', `${name} is not installed (removed meanwhile?)`);
        const plan = await planRemove(project, name);
        if (plan.dependents.length) {
          return fail(
            'forbidden',
            `cannot remove ${name}: ${plan.dependents.join(', ')} depend${plan.dependents.length === 1 ? 's' : ''} on it — remove ${plan.dependents.length === 1 ? 'that' : 'those'} first`,
          );
        }
        const extra = orphans.filter((o) => !plan.orphans.includes(o));
        if (extra.length)
          return fail('forbidden', `${extra.join(', ')}: not an orphaned dependency of ${name} — nothing removed`);
        const names = [name, ...orphans];
        await applyRemove(project, names);
        await recompileAfterChange(project, (t) => notes.push(t.trim()), 'remove');
        return ok({ removed: names, notes });
      });
    } catch (e) {
      throw asCodedError(e, 'remove');
    }
    if (!done.ok) throw CodedError.of(done.error);
    return done.value;
  }

  /** The live review `id` of the expected kind for `project`, or a `not-found` / `forbidden` refusal. */
  private pending(project: string, id: string, kind: LiveReview['kind']): LiveReview {
    const r = this.reviews.get(id);
    if (!r || r.kind !== kind) throw new CodedError('not-found', EXPIRED);
    return this.live(project, id);
  }
}

/** The two refusals that hold for every approval, before anything else is looked at. */
function refuseUnapprovable(review: InstallReview, integrity: string): void {
  if (review.blockers.length > 0) {
    throw new CodedError(
      'forbidden',
      `blocked — ${plural(review.blockers.length, 'safety or policy finding')} (${review.blockers[0]}); a blocked review cannot be approved`,
    );
  }
  if (integrity !== review.integrity)
    throw new CodedError(
      'forbidden',
      `the approval names ${integrity}, but the review is ${review.integrity} — nothing installed`,
    );
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
}

/** A failure from below as one line naming the step, with its own code; an uncoded one is `internal`. */
function asCodedError(e: unknown, what: string): CodedError {
  return new CodedError(isCoded(e) ? e.code : 'internal', `${what}: ${firstLine(e)}`);
}
