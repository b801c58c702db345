import { listSpecs, loadSpec } from '../../services/skillspec/project';
import type { AreaHandlers } from '../table';

export const specHandlers: AreaHandlers<'spec'> = {
  list: (_req, { session }) => listSpecs(session.requireProject().ref.root),
  load: (req, { session }) => loadSpec(session.requireProject().ref.root, req.dir),
};
