import { acceptStagedFinding, nodeOf, stagedFile, stagedFiles } from '../../services/install/review-files';
import type { AreaHandlers, HandlerContext } from '../table';

/** A live review of this session for the open project, and its project. */
function review(ctx: HandlerContext, id: string) {
  return ctx.session.services.install.live(ctx.session.requireProject().ref.root, id);
}

export const reviewHandlers: AreaHandlers<'review'> = {
  files: (req, ctx) => stagedFiles(nodeOf(review(ctx, req.id), req.skill)),
  file: (req, ctx) => stagedFile(nodeOf(review(ctx, req.id), req.skill), req.skill, req.path),
  acceptFinding: (req, ctx) => {
    const r = review(ctx, req.id);
    return acceptStagedFinding(r, nodeOf(r, req.skill), {
      check: req.check,
      file: req.file,
      line: req.line,
      by: req.by,
      reason: req.reason,
    });
  },
};
