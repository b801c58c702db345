import type { AreaHandlers, HandlerContext } from '../table';

/** Re-pinning after review: the session's re-pin flow does the work. */
const project = (ctx: HandlerContext): string => ctx.session.requireProject().ref.root;

export const lockHandlers: AreaHandlers<'lock'> = {
  review: (req, ctx) => ctx.session.services.repin.review(project(ctx), req.dir),
  repin: (req, ctx) => ctx.session.services.repin.apply(project(ctx), req.id, req.integrity),
};
