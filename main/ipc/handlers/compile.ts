import { applyShownPlan, currentPlan, diskPlan } from '../../services/compile/disk-plan';
import type { AreaHandlers } from '../table';

export const compileHandlers: AreaHandlers<'compile'> = {
  // On the open project's preview thread, against the project as loaded for this state of its files.
  preview: (req, { session }) => session.requireProject().handle.preview(req),
  plan: (_req, { session }) => {
    const { root } = session.requireProject().ref;
    return diskPlan(root, currentPlan(root));
  },
  apply: (req, { session }) => applyShownPlan(session.requireProject().ref.root, req.digest),
};
