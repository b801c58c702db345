import type { AdoptItemView, AdoptPlanView } from '../../../shared/ipc/channels/adopt';
import {
  AdoptRefused,
  commitAdoption,
  scanAdoption,
  type AdoptItem,
  type AdoptPlan,
} from '../../services/install/adopt';
import { listSourceSkills } from '../../services/install/listing';
import { SourceError } from '../../services/sources/copy';
import { acquireProjectLock } from '../../services/workspace/project-lock';
import { recompileAfterChange } from '../../services/workspace/recompile';
import { HandlerError } from '../errors';
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

/** A bad kitbash.toml or source is the user's to fix: one line, not an internal error. */
function userError(e: unknown): never {
  if (e instanceof SourceError || e instanceof AdoptRefused) throw new HandlerError('forbidden', e.message);
  if (e instanceof Error && !(e instanceof HandlerError))
    throw new HandlerError('invalid-request', e.message.split('\n')[0]!);
  throw e;
}

/**
 * Adoption is stateless across calls: `scan` reviews and forgets; `apply` scans again and
 * adopts only when the new review hashes to what the renderer was shown, so a file edited
 * in between (or a renderer naming another hash) adopts nothing.
 */
export const adoptHandlers: AreaHandlers<'adopt'> = {
  scan: (_req, ctx) => {
    let scan;
    try {
      scan = scanAdoption(projectRoot(ctx));
    } catch (e) {
      userError(e);
    }
    try {
      return planView(scan.plan);
    } finally {
      scan.dispose();
    }
  },
  apply: async (req, ctx) => {
    const root = projectRoot(ctx);
    const release = acquireProjectLock(root, { command: 'adopt (app)' });
    try {
      const scan = scanAdoption(root);
      try {
        if (scan.plan.integrity !== req.integrity)
          throw new HandlerError(
            'forbidden',
            'the hand-written skills changed since the review — nothing adopted; review them again',
          );
        if (!scan.plan.items.some((i) => i.status === 'adoptable'))
          throw new HandlerError('not-found', 'there is nothing to adopt');
        const result = commitAdoption(scan, { integrity: req.integrity });
        const notes: string[] = [];
        await recompileAfterChange(root, (t) => notes.push(t.trim()), 'adopt');
        return { adopted: result.adopted, retired: result.retired, notes };
      } finally {
        scan.dispose();
      }
    } catch (e) {
      return userError(e);
    } finally {
      release();
    }
  },
};

export const sourcesHandlers: AreaHandlers<'sources'> = {
  list: (req, ctx) => {
    try {
      const l = listSourceSkills(req.source, projectRoot(ctx));
      return { single: l.single, skills: l.skills.map((s) => ({ ...s })) };
    } catch (e) {
      return userError(e);
    }
  },
};
