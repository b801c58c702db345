import { plural } from '../../../../shared/text/format';
import { useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import { navigate } from '../../route';
import { useEvalsOverview } from './use-evals-overview';
import { queryKeys } from '../../query-keys';
import { useApprovedStart } from './RunnerApproval';

/**
 * The editor's "Run evals": starts this skill's evals (with a baseline) and opens the Evals view
 * on it; a runner not approved as defined now is asked about first, as in the Evals view.
 */
export function RunEvalsButton({ project, skill }: { project: ProjectRef; skill: string }) {
  const qc = useQueryClient();
  const overview = useEvalsOverview(project.root);
  const { start, dialog } = useApprovedStart(() => {
    void qc
      .invalidateQueries({ queryKey: queryKeys.evals.overview(project.root) })
      .then(() => navigate({ view: 'evals', arg: skill }));
  });
  const refusal = start.data && !start.data.ok ? start.data.message : null;
  const entry = overview.data?.skills.find((s) => s.name === skill);
  if (!entry) return null;
  const reason = entry.refused ?? refusal;
  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={entry.refused !== null || start.isPending}
        title={
          reason ??
          `Run ${skill}'s ${plural(entry.evals.length, 'eval')} against the configured runners, with a baseline`
        }
        onClick={() => start.mutate({ skills: [skill], baseline: true })}
        data-testid="editor-run-evals"
      >
        Run evals{refusal ? ' — refused' : ''}
      </button>
      {dialog}
    </>
  );
}
