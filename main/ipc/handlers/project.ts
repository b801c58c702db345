import { initProject } from '../../services/project/init';
import type { AreaHandlers } from '../table';

export const projectHandlers: AreaHandlers<'project'> = {
  open: (req, { session }) => session.open(req.path),
  current: (_req, { session }) => ({ project: session.project }),
  close: (_req, { session }) => ({ closed: session.close() }),
  dashboard: (_req, { session }) => session.requireProject().handle.dashboard(),
  cachedDashboard: (_req, { session }) => ({ dashboard: session.requireProject().handle.cachedDashboard() }),
  watchStatus: (_req, { session }) => session.requireProject().handle.watchStatus(),
  watchGap: async (req, { session }) => ({ gap: await session.requireProject().handle.watchGap(req.path) }),
  init: (req, { session }) => ({ created: initProject(session.requireProject().ref.root, req.targets) }),
};
