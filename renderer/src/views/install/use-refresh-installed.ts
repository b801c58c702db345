import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../query-keys';

/** After an install or an update: the dashboard and every open skill are read again. */
export function useRefreshInstalled(root: string): () => void {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(root) });
    void qc.invalidateQueries({ queryKey: queryKeys.skills.of(root) });
  };
}
