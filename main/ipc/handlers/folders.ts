import { listFolders } from '../../services/folders';
import type { AreaHandlers } from '../table';
import { CodedError } from '../../../shared/result';

export const foldersHandlers: AreaHandlers<'folders'> = {
  list: (req) => {
    const r = listFolders(req.path);
    if (!r.ok) throw CodedError.of(r.error);
    return r.value;
  },
};
