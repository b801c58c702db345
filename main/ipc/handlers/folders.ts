import { listFolders } from '../../services/folders';
import { HandlerError } from '../errors';
import type { AreaHandlers } from '../table';

export const foldersHandlers: AreaHandlers<'folders'> = {
  list: (req) => {
    const r = listFolders(req.path);
    if (!r.ok) throw new HandlerError(r.error.reason === 'outside-home' ? 'forbidden' : 'not-found', r.error.message);
    return r.value;
  },
};
