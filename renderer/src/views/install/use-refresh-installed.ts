import { useQueryClient } from '@tanstack/react-query';
import { keys } from '../../queries';
import { installKeys } from './keys';

/** After an install or an update: the dashboard and every open skill are read again. */
export function useRefreshInstalled(root: string): () => void {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: keys.dashboard(root) });
    void qc.invalidateQueries({ queryKey: installKeys.skillsOf(root) });
  };
}
