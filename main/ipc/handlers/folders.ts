import { listFolders } from '../../services/folders';
import { ERROR_CODES } from '../../../shared/result';
import { HandlerError } from '../errors';
import type { AreaHandlers } from '../table';

export const foldersHandlers: AreaHandlers<'folders'> = {
  list: (req) => {
    const r = listFolders(req.path);
    if (!r.ok) throw new HandlerError(ERROR_CODES[r.error.code].ipc, r.error.message);
    return r.value;
  },
};
