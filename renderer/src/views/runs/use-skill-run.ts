import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { Refusal, RunTarget } from '../../../../shared/ipc/channels/runs';
import { useApi } from '../../api/context';
import { useRun } from './run-store';
import { errorText, splitArgs, type Ask } from './run-text';
import { queryKeys } from '../../query-keys';

/** The choice value of a gate's verdict run (a script name never holds a NUL). */
const GATE = '\u0000gate';

/**
 * One skill's run: what is chosen and typed, the plan main answers for it (refusal or
 * command), and the run started from it, followed to its exit.
 */
export function useSkillRun(project: ProjectRef, target: RunTarget) {
  const api = useApi();
  const qc = useQueryClient();
  const gate = target.mode === 'gate';
  const choices = useMemo(
    () => [
      ...(gate ? [{ value: GATE, label: 'gate (verdict)' }] : []),
      ...target.scripts.map((s) => ({ value: s, label: `scripts/${s}` })),
    ],
    [gate, target.scripts],
  );
  const [choice, setChoice] = useState<string>(choices[0]?.value ?? '');
  const [argText, setArgText] = useState('');
  const [runId, setRunId] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [refusedAtStart, setRefusedAtStart] = useState<Refusal | null>(null);
  const ask: Ask | null = choice
    ? {
        skill: target.dir,
        mode: choice === GATE ? 'gate' : 'run',
        ...(choice === GATE ? {} : { script: choice }),
        args: splitArgs(argText),
      }
    : null;
  const askKey = JSON.stringify(ask);
  const plan = useQuery({
    queryKey: queryKeys.runs.plan(project.root, askKey),
    queryFn: () => api.runs.plan(ask!),
    enabled: ask !== null,
    retry: false,
    staleTime: 0,
  });
  const run = useRun(runId);
  const running = runId !== null && run?.exit == null;

  useEffect(() => {
    if (run?.exit) void qc.invalidateQueries({ queryKey: queryKeys.runs.histories(project.root) });
  }, [run?.exit, qc, project.root]);

  const start = useMutation({
    mutationFn: (extra: { overrideToken?: string }) => api.runs.start({ ...ask!, ...extra }),
    onMutate: () => {
      setStartError(null);
      setRefusedAtStart(null);
    },
    onSuccess: (a) => {
      if (a.ok) setRunId(a.runId);
      else {
        setRefusedAtStart(a.refusal);
        void qc.invalidateQueries({ queryKey: queryKeys.runs.histories(project.root) });
      }
    },
    onError: (e) => setStartError(errorText(e, 'runs.start')),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => api.runs.cancel({ runId: id }),
    onError: (e) => setStartError(errorText(e, 'runs.cancel')),
  });
  return {
    gate,
    choices,
    choice,
    setChoice,
    argText,
    setArgText,
    ask,
    plan,
    runId,
    run,
    running,
    start,
    cancel,
    startError,
    refusedAtStart,
  };
}
