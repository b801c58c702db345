import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import { useApi } from '../../api/context';
import { navigate } from '../../route';
import { guiWording } from '../../gui-wording';
import { useEvalsOverview } from './use-evals-overview';
import { queryKeys } from '../../query-keys';

/** The editor's "Run evals": starts this skill's evals (with a baseline) and opens the Evals view on it. */
export function RunEvalsButton({ project, skill }: { project: ProjectRef; skill: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const overview = useEvalsOverview(project.root);
  const [refusal, setRefusal] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => api.evals.start({ skills: [skill], baseline: true }),
    onSuccess: async (a) => {
      if (!a.ok) return setRefusal(a.message);
      await qc.invalidateQueries({ queryKey: queryKeys.evals.overview(project.root) });
      navigate({ view: 'evals', arg: skill });
    },
  });
  const entry = overview.data?.skills.find((s) => s.name === skill);
  if (!entry) return null;
  const why = entry.refused ?? refusal;
  const reason = why === null ? null : guiWording(why);
  return (
    <button
      type="button"
      className="btn"
      disabled={entry.refused !== null || start.isPending}
      title={reason ?? `Run ${skill}'s ${entry.evals.length} eval(s) against the configured runners, with a baseline`}
      onClick={() => start.mutate()}
      data-testid="editor-run-evals"
    >
      Run evals{refusal ? ' — refused' : ''}
    </button>
  );
}
