import type { AreaHandlers } from '../table';
import { CodedError } from '../../../shared/result';

export const appHandlers: AreaHandlers<'app'> = {
  info: (_req, { session }) => ({
    version: session.platform.version,
    capabilities: { ...session.platform.capabilities },
    examplePath: session.platform.examplePath,
  }),
  recentProjects: (_req, { session }) => ({ projects: session.platform.recent.list() }),
  forgetRecent: (req, { session }) => {
    session.platform.recent.forget(req.path);
    return { projects: session.platform.recent.list() };
  },
  pickFolder: async (_req, { session }) => {
    const pick = session.platform.pickFolder;
    if (!pick)
      throw new CodedError('unsupported', 'this window cannot show a folder dialog — type the folder path instead');
    return { path: await pick(session) };
  },
};
