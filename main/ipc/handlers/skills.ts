import { skillDetail } from '../../services/skills/detail';
import type { AreaHandlers } from '../table';

export const skillsHandlers: AreaHandlers<'skills'> = {
  get: (req, { session }) => skillDetail(session.requireProject().ref.root, req.dir),
};
