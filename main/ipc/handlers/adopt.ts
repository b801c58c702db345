import type { AdoptItemView, AdoptPlanView } from '../../../shared/ipc/channels/adopt';
import type { AdoptItem, AdoptPlan } from '../../services/install/adopt';
import { adoptShown, listSourceForApp, scanForApp } from '../../services/install/adopt-app';
import type { AreaHandlers, HandlerContext } from '../table';

function projectRoot(ctx: HandlerContext): string {
  return ctx.session.requireProject().ref.root;
}

function itemView(i: AdoptItem): AdoptItemView {
  const node = i.review?.nodes[0];
  return {
    name: i.name,
    copies: [...i.copies],
    status: i.status,
    ...(i.reason !== undefined ? { reason: i.reason } : {}),
    retire: [...i.retire],
    keep: [...i.keep],
    ...(node && i.review
      ? {
          review: {
            version: node.version,
            description: node.description,
            manifested: node.manifested,
            files: [...node.files],
            permissions: node.permissions.map((p) => ({ permission: p.permission, declared: p.declared })),
            lint: node.lint.map((f) => ({ ...f })),
            safety: node.safety.map((f) => ({ ...f })),
            policy: [...node.policy],
            notices: [...i.review.notices],
            pinAs: node.source.raw,
          },
        }
      : {}),
  };
}

function planView(plan: AdoptPlan): AdoptPlanView {
  return {
    items: plan.items.map(itemView),
    ...(plan.skillsLock
      ? { skillsLock: { ...plan.skillsLock, entries: plan.skillsLock.entries.map((e) => ({ ...e })) } }
      : {}),
    integrity: plan.integrity,
  };
}

export const adoptHandlers: AreaHandlers<'adopt'> = {
  scan: (_req, ctx) => scanForApp(projectRoot(ctx), planView),
  apply: (req, ctx) => adoptShown(projectRoot(ctx), req.integrity),
};

export const sourcesHandlers: AreaHandlers<'sources'> = {
  list: (req, ctx) => listSourceForApp(req.source, projectRoot(ctx)),
};
