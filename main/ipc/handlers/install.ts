import type { Progress } from '../../services/install/flow';
import type { AreaHandlers, HandlerContext } from '../table';

/** The install approval dialog's handlers: the session's install flow does the work. */

const project = (ctx: HandlerContext): string => ctx.session.requireProject().ref.root;
const flow = (ctx: HandlerContext) => ctx.session.services.install;

/** Progress events for `id`, each let out before the (synchronous) fetch holds the thread. */
function progress(ctx: HandlerContext, id: string | undefined): Progress {
  return (label, done, total) => {
    if (id === undefined) return Promise.resolve();
    ctx.session.emit('progress', { id, label, done, total });
    return new Promise((resolve) => setImmediate(resolve));
  };
}

export const installHandlers: AreaHandlers<'install'> = {
  begin: (req, ctx) => flow(ctx).begin(project(ctx), req.source, progress(ctx, req.progressId)),
  approve: (req, ctx) => flow(ctx).approve(project(ctx), req.id, req.integrity, progress(ctx, req.progressId)),
  cancel: (req, ctx) => ({ cancelled: flow(ctx).cancel(req.id) }),
  checkUpdate: (req, ctx) => flow(ctx).checkUpdate(project(ctx), req.name, progress(ctx, req.progressId)),
  applyUpdate: (req, ctx) => flow(ctx).applyUpdate(project(ctx), req.id, req.integrity),
  planRemove: (req, ctx) => flow(ctx).planRemove(project(ctx), req.name),
  remove: (req, ctx) => flow(ctx).remove(project(ctx), req.name, req.orphans),
};
