import type { InstallReview } from '../../../shared/lock/review';
import { withProjectLock } from '../workspace/project-lock';
import { recompileAfterChange } from '../workspace/recompile';
import { recover } from '../workspace/txn';
import { withEnforcement } from './enforcement';
import { commitInstall, stageInstall, type StagedInstall } from './stage';

/** One review shown in the approval dialog, with the staged copy it was made from. */
export interface LiveReview {
  readonly kind: 'install' | 'update';
  readonly project: string;
  readonly source: string;
  readonly review: InstallReview;
  readonly staged: StagedInstall;
  readonly at: number;
}

export const REVIEW_TTL_MS = 30 * 60 * 1000;

/**
 * The one owner of install and update reviews: each holds its staged copy until it is
 * approved, cancelled, expired (30 minutes), or the store is cleared — whichever comes
 * first, the staged folder is disposed exactly once, here. The desktop keeps one store per
 * renderer session, so a review can only be named by the window it was shown in.
 */
export class ReviewStore {
  private readonly live = new Map<string, LiveReview>();

  constructor(
    private readonly ttlMs = REVIEW_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stage `source` for `project` and keep its review. Throws a one-line Error on a bad source. */
  async beginInstall(project: string, source: string): Promise<{ id: string; review: InstallReview }> {
    this.sweep();
    const staged = await stageInstall(project, source);
    let review: InstallReview;
    try {
      review = await withEnforcement(staged.review);
    } catch (e) {
      await staged.dispose();
      throw e;
    }
    this.put({ kind: 'install', project, source, review, staged });
    return { id: staged.id, review };
  }

  /** Keep an update review over a staged copy the caller made; the store owns the copy from now on. */
  putUpdate(project: string, source: string, review: InstallReview, staged: StagedInstall): string {
    this.sweep();
    this.put({ kind: 'update', project, source, review, staged });
    return staged.id;
  }

  /** The live review `id`, or undefined once it expired or was used. */
  get(id: string): LiveReview | undefined {
    this.sweep();
    return this.live.get(id);
  }

  /** The staged copy behind a live review, or undefined. */
  stagedOf(id: string): StagedInstall | undefined {
    return this.get(id)?.staged;
  }

  /**
   * Remove the review from the store and hand its staged copy to the caller, who must
   * dispose it (approval commits from it first).
   */
  take(id: string): LiveReview | undefined {
    const r = this.get(id);
    if (r) this.live.delete(id);
    return r;
  }

  /** Drop a review without installing anything; false when there was none. Its staged copy goes in the background. */
  drop(id: string): boolean {
    const r = this.live.get(id);
    if (!r) return false;
    this.live.delete(id);
    r.staged.dispose().catch(() => undefined);
    return true;
  }

  /**
   * Commit the install review's staged files if `integrity` is its hash, then recompile.
   * The review is used up whatever happens.
   */
  async approveInstall(id: string, integrity: string): Promise<{ installed: string[]; notes: string[] }> {
    const r = this.take(id);
    if (!r || r.kind !== 'install')
      throw new Error('this install review has expired or was already used — review the source again');
    const notes: string[] = [];
    try {
      return await withProjectLock(r.project, `install (app) ${r.review.root}`, async () => {
        notes.push(...(await recover(r.project)));
        const done = await commitInstall(r.staged, { integrity });
        if (done.installed.length)
          await recompileAfterChange(r.project, (t) => notes.push(t.trim()), 'install', r.staged.planned);
        return { installed: done.installed, notes };
      });
    } finally {
      await r.staged.dispose();
    }
  }

  /** Dispose every review: the session ended or switched project. */
  clear(): void {
    for (const id of [...this.live.keys()]) this.drop(id);
  }

  private put(r: Omit<LiveReview, 'at'>): void {
    this.live.set(r.staged.id, { ...r, at: this.now() });
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, r] of this.live) if (now - r.at > this.ttlMs) this.drop(id);
  }
}
