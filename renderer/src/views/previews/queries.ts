import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/context';

export const compileKeys = {
  snapshot: (root: string) => ['compile', 'snapshot', root] as const,
  plan: (root: string) => ['compile', 'plan', root] as const,
};

/** What the planner reads from the open project; refetched when files change on disk. */
export function useCompileSnapshot(root: string) {
  const api = useApi();
  const qc = useQueryClient();
  useEffect(
    () =>
      api.on('project.changed', (e) => {
        if (e.root !== root) return;
        void qc.invalidateQueries({ queryKey: ['compile', 'snapshot', root] });
        void qc.invalidateQueries({ queryKey: ['compile', 'plan', root] });
      }),
    [api, qc, root],
  );
  return useQuery({
    queryKey: compileKeys.snapshot(root),
    queryFn: () => api.compile.snapshot({}),
    staleTime: Infinity,
    retry: false,
  });
}

/** The plan of the project as saved (what Compile would do now). */
export function useDiskPlan(root: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: compileKeys.plan(root),
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
      void qc.invalidateQueries({ queryKey: ['compile', 'snapshot', root] });
      void qc.invalidateQueries({ queryKey: ['compile', 'plan', root] });
      void qc.invalidateQueries({ queryKey: ['project', 'dashboard', root] });
    },
  });
}
