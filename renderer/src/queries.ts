import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dashboard, WatchStatus } from '../../shared/ipc';
import type { KeptReport } from '../../shared/ipc/channels/reports';
import type { TargetId } from '../../shared/targets/types';
import { useApi } from './api/context';
import { queryKeys } from './query-keys';

export const useAppInfo = () => {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.app.info(), queryFn: () => api.app.info({}), staleTime: Infinity });
};

export const useRecent = () => {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.app.recent(), queryFn: () => api.app.recentProjects({}) });
};

export const useCurrentProject = () => {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.project.current(), queryFn: () => api.project.current({}) });
};

let initialDashboard: Promise<Dashboard> | null = null;
let initialCached: Promise<{ dashboard: Dashboard | null }> | null = null;

/**
 * The dashboard requests main.tsx sends at start-up, alongside project.current: the fresh
 * scan and the last one kept from an earlier run; each used once.
 */
export function startInitialDashboard(
  fresh: Promise<Dashboard>,
  cached: Promise<{ dashboard: Dashboard | null }>,
): void {
  fresh.catch(() => undefined); // no project open: the picker shows instead
  cached.catch(() => undefined);
  initialDashboard = fresh;
  initialCached = cached;
}

/**
 * The project's last scan from an earlier run, for the first paint while the fresh scan
 * runs. Only asked while `enabled` (no fresh scan yet); never refetched.
 */
export const useCachedDashboard = (root: string, enabled: boolean) => {
  const api = useApi();
  return useQuery<Dashboard | null>({
    queryKey: queryKeys.project.cachedDashboard(root),
    queryFn: async () => {
      const first = initialCached;
      initialCached = null;
      // The start-up answer is this project's unless it failed (no project was open then).
      const answer = first ? await first.catch(() => undefined) : undefined;
      if (answer && (answer.dashboard === null || answer.dashboard.project.root === root)) return answer.dashboard;
      return (await api.project.cachedDashboard({})).dashboard;
    },
    enabled,
    staleTime: Infinity,
    retry: false,
  });
};

export const useDashboard = (root: string) => {
  const api = useApi();
  return useQuery<Dashboard>({
    queryKey: queryKeys.project.dashboard(root),
    queryFn: async () => {
      const first = initialDashboard;
      initialDashboard = null;
      if (first) {
        const d = await first.catch(() => null);
        if (d && d.project.root === root) return d;
      }
      return api.project.dashboard({});
    },
    staleTime: Infinity,
    retry: false,
  });
};

/** The Costs view's figures (computed in main, on the dashboard's worker); refetched when files change. */
export const useCostsReport = (root: string) => {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.reports.costs(root),
    queryFn: () => api.reports.costs({}),
    staleTime: Infinity,
    retry: false,
  });
};

export const useMatrixReport = (root: string) => {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.reports.matrix(root),
    queryFn: () => api.reports.matrix({}),
    staleTime: Infinity,
    retry: false,
  });
};

/**
 * The Costs or Matrix report kept from an earlier run, for the view's first paint while the
 * fresh one is computed. Only asked while `enabled` (no fresh report yet); never refetched.
 */
export const useKeptReport = <K extends 'costs' | 'matrix'>(root: string, kind: K, enabled: boolean) => {
  const api = useApi();
  return useQuery<KeptReport<K> | null>({
    queryKey: queryKeys.kept.report(root, kind),
    queryFn: async () =>
      (kind === 'costs'
        ? (await api.reports.keptCosts({})).kept
        : (await api.reports.keptMatrix({})).kept) as KeptReport<K> | null,
    enabled,
    staleTime: Infinity,
    retry: false,
  });
};

/** `target` undefined (a route naming no known target) asks nothing. */
export const useExplain = (root: string, skill: string, target: TargetId | undefined) => {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.reports.explain(root, skill, target),
    queryFn: async () => (await api.reports.explain({ skill, target: target! })).explanation,
    enabled: target !== undefined,
    staleTime: Infinity,
    retry: false,
  });
};

export const useSkill = (root: string, dir: string | null) => {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.skills.get(root, dir ?? ''),
    queryFn: () => api.skills.get({ dir: dir! }),
    enabled: dir !== null,
    retry: false,
  });
};

export function useOpenProject() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (path: string) => api.project.open({ path }),
    onSuccess: (project) => {
      qc.setQueryData(queryKeys.project.current(), { project });
      void qc.invalidateQueries({ queryKey: queryKeys.app.recent() });
    },
  });
}

export function useCloseProject() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.project.close({}),
    onSuccess: () => {
      qc.setQueryData(queryKeys.project.current(), { project: null });
      void qc.invalidateQueries({ queryKey: queryKeys.app.recent() });
    },
  });
}

/**
 * Whether changes on disk reach this window (main's watch of the project). `useLiveRefresh`
 * writes each change main sends; asked again on every mount, since a window that had the
 * project closed missed the changes meanwhile.
 */
export function useWatchStatus(root: string) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.project.watch(root),
    queryFn: (): Promise<WatchStatus> => api.project.watchStatus({}),
  });
}

/**
 * Why a change made on disk in folder `path` (project-relative) or under it might not reach
 * this window, or null when every such folder is watched. Asked again whenever the watch
 * changes (`useLiveRefresh`).
 */
export function useWatchGap(root: string, path: string) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.project.watchGap(root, path),
    queryFn: async (): Promise<string | null> => (await api.project.watchGap({ path })).gap,
  });
}

/**
 * Live refresh: main's debounced watcher sends `project.changed`; the dashboard and any
 * open skill refetch. Returns when the last change arrived, for the header's indicator.
 */
export function useLiveRefresh(root: string | null): Date | null {
  const api = useApi();
  const qc = useQueryClient();
  const [last, setLast] = useState<Date | null>(null);
  const rootRef = useRef(root);
  rootRef.current = root;
  useEffect(() => {
    const offChanged = api.on('project.changed', (e) => {
      if (e.root !== rootRef.current) return;
      setLast(new Date(e.at));
      void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(e.root) });
      void qc.invalidateQueries({ queryKey: queryKeys.skills.of(e.root) });
      void qc.invalidateQueries({ queryKey: queryKeys.reports.all(e.root) });
    });
    const offWatch = api.on('project.watch', ({ root, ...status }) => {
      if (root !== rootRef.current) return;
      // An answer still in flight is older than this event: it must not overwrite it.
      void qc
        .cancelQueries({ queryKey: queryKeys.project.watch(root) })
        .then(() => qc.setQueryData(queryKeys.project.watch(root), status));
      void qc.invalidateQueries({ queryKey: queryKeys.project.watchGaps(root) });
    });
    const offOpened = api.on('project.opened', (p) => {
      qc.setQueryData(queryKeys.project.current(), { project: p });
      void qc.invalidateQueries({ queryKey: queryKeys.app.recent() });
    });
    const offClosed = api.on('project.closed', () => {
      qc.setQueryData(queryKeys.project.current(), { project: null });
      void qc.invalidateQueries({ queryKey: queryKeys.app.recent() });
    });
    return () => {
      offChanged();
      offWatch();
      offOpened();
      offClosed();
    };
  }, [api, qc]);
  return last;
}
