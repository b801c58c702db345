import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { queryKeys } from '../../query-keys';

/** The project's skills with evals, the runners, the newest results and the run in progress, if any. */
export function useEvalsOverview(root: string) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.evals.overview(root),
    queryFn: () => api.evals.overview({}),
    retry: false,
  });
}
