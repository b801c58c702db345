import { applyShownPlan, currentPlan, diskPlan } from '../../services/compile/disk-plan';
import { compileSnapshot } from '../../services/compile/snapshot';
import type { AreaHandlers } from '../table';

export const compileHandlers: AreaHandlers<'compile'> = {
  snapshot: (_req, { session }) => compileSnapshot(session.requireProject().ref.root),
  plan: (_req, { session }) => {
    const { root } = session.requireProject().ref;
    return diskPlan(root, currentPlan(root));
  },
  apply: (req, { session }) => applyShownPlan(session.requireProject().ref.root, req.digest),
};
