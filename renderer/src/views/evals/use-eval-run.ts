import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApprovedStart } from './RunnerApproval';
import type { ProjectRef } from '../../../../shared/ipc';
import type { EvalProgress, EvalRunRequest, EvalsOverview } from '../../../../shared/ipc/channels/evals';
import { useApi } from '../../api/context';
import { queryKeys } from '../../query-keys';

/**
 * One skill's eval run: the runner, trials and baseline chosen, the run started (or one
 * started elsewhere, e.g. the editor's "Run evals", picked up and followed), its progress
 * polled while it runs, and the stored results re-read when it ends. A runner not approved
 * as defined now is asked about first (`approval`, the dialog to render).
 */
export function useEvalRun(project: ProjectRef, overview: EvalsOverview, skill: string) {
  const api = useApi();
  const qc = useQueryClient();
  const configured = overview.runners.filter((r) => r.configured);
  const [runner, setRunner] = useState<string>(configured.length ? '' : (overview.runners[0]?.id ?? ''));
  const [repeat, setRepeat] = useState<string>('');
  const [baseline, setBaseline] = useState(true);
  const [runId, setRunId] = useState<string | null>(overview.active);

  const { start, dialog: approval } = useApprovedStart(setRunId);
  const request = (): EvalRunRequest => ({
    skills: [skill],
    baseline,
    ...(runner ? { runner } : {}),
    ...(repeat ? { repeat: Number(repeat) } : {}),
  });
  const status = useQuery({
    queryKey: queryKeys.evals.status(project.root, runId ?? ''),
    queryFn: () => api.evals.status({ runId: runId! }),
    enabled: runId !== null,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 400 : false),
  });
  const progress: EvalProgress | undefined = status.data;
  const running = progress?.state === 'running';
  useEffect(() => {
    if (progress && progress.state !== 'running') {
      void qc.invalidateQueries({ queryKey: queryKeys.evals.overview(project.root) });
      void qc.invalidateQueries({ queryKey: queryKeys.evals.history(project.root, skill) });
    }
  }, [progress, qc, project.root, skill]);
  const cancel = useMutation({ mutationFn: () => api.evals.cancel({ runId: runId! }) });
  return {
    configured,
    runner,
    setRunner,
    repeat,
    setRepeat,
    baseline,
    setBaseline,
    start,
    request,
    approval,
    cancel,
    progress,
    running,
  };
}

export type EvalRun = ReturnType<typeof useEvalRun>;
