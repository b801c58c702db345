import type { Skill } from '../../../shared/ksf/model';
import { renderReview, type InstallReview } from '../../../shared/lock/review';
import { withEnforcement } from './enforcement';
import { stageInstall } from './stage';

/**
 * The install review of a source that is not installed, for `preview <source>`: the same
 * object and text `install` shows, plus the staged requested skill (so a preview can render
 * per-target output for a remote source too). Nothing in the project is written; the
 * caller must `dispose()`.
 */
export async function reviewSource(
  project: string,
  source: string,
): Promise<{ review: InstallReview; text: string; skill: Skill; dispose(): Promise<void> }> {
  const staged = await stageInstall(project, source, { reviewOnly: true });
  try {
    const review = await withEnforcement(staged.review);
    return { review, text: renderReview(review), skill: staged.nodes[0]!.skill, dispose: () => staged.dispose() };
  } catch (e) {
    await staged.dispose();
    throw e;
  }
}
