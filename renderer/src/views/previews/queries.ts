import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { queryKeys } from '../../query-keys';
import { useRefreshOnChange } from '../../use-refresh-on-change';

/** A skill's text files as saved (where a scratch draft starts); refetched when files change on disk. */
export function useSavedFiles(root: string, dir: string) {
  const api = useApi();
  useRefreshOnChange(root, queryKeys.compile.saved(root, dir));
  return useQuery({
    queryKey: queryKeys.compile.saved(root, dir),
    queryFn: async () => {
      const skill = await api.editor.open({ dir });
      const m = new Map<string, string>();
      for (const f of skill.files) if (f.text !== null && /\.(md|toml|ya?ml|txt)$/.test(f.path)) m.set(f.path, f.text);
      return m;
    },
    staleTime: Infinity,
    retry: false,
  });
}

/** The plan of the project as saved (what Compile would do now). */
export function useDiskPlan(root: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.compile.plan(root),
    queryFn: () => api.compile.plan({}),
    enabled,
    staleTime: 0,
    retry: false,
  });
}

export function useApplyCompile(root: string) {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (digest: string) => api.compile.apply({ digest }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.compile.plan(root) });
      void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(root) });
    },
  });
}
