import { plural } from '../../../../shared/text/format';
import { useQuery } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { EvalResultView } from '../../../../shared/ipc/channels/evals';
import { evalFromTrial } from '../../../../shared/evals/template';
import { usageText } from '../../../../shared/evals/usage';
import { useApi } from '../../api/context';
import { ErrorState, Spinner } from '../../components/States';
import { UnifiedDiff } from '../../components/UnifiedDiff';
import { Assertions } from './Assertions';
import { SaveAsEval } from './SaveAsEval';
import { queryKeys } from '../../query-keys';

/** One trial: the transcript (messages and tool calls), what it changed, and its assertions. */
export function TrialPanel({
  project,
  runId,
  result,
  baseline,
  index,
}: {
  project: ProjectRef;
  runId: string;
  result: EvalResultView;
  baseline: boolean;
  index: number;
}) {
  const api = useApi();
  const ask = { runId, skill: result.skill, eval: result.eval, runner: result.runner, baseline, index };
  const q = useQuery({
    queryKey: queryKeys.evals.trial(project.root, JSON.stringify(ask)),
    queryFn: () => api.evals.trial(ask),
    retry: false,
  });
  if (q.isError) return <ErrorState error={q.error} />;
  if (!q.data) return <Spinner label="Reading the trial" />;
  const { trial, entries, transcriptProblem, output, diff, stderr } = q.data;
  return (
    <div className="evals-trial-detail" data-testid="trial-detail">
      <SaveAsEval
        project={project}
        skill={result.skill}
        name={`${result.eval}-${trial.baseline ? 'baseline-' : ''}trial-${trial.index + 1}`}
        text={() => evalFromTrial(trial, output)}
      />
      <p className="small">
        <strong>Task:</strong> {trial.task}
        {trial.shouldTrigger !== undefined && (
          <span className="muted"> — should {trial.shouldTrigger ? '' : 'not '}trigger</span>
        )}
      </p>
      <p className="small muted">
        {trial.outcome}
        {trial.exitCode !== null ? ` · exit ${trial.exitCode}` : ''} · {(trial.durationMs / 1000).toFixed(1)} s · skill
        loaded: {trial.skillLoaded}
        {trial.tools.length ? ` · tools: ${trial.tools.join(', ')}` : ''}
        {trial.usage ? ` · ${usageText(trial.usage)}` : ''}
        {trial.message ? ` · ${trial.message}` : ''}
      </p>
      <Assertions items={trial.assertions} label="Trial assertions" />
      <div className="evals-columns">
        <div>
          <h4>Transcript</h4>
          {transcriptProblem && <div className="banner error small">{transcriptProblem}</div>}
          <ol className="evals-transcript" aria-label="Transcript">
            {entries.map((e, i) => (
              <li key={i} className={`evals-entry ${e.kind}`}>
                <span className="evals-entry-kind">{e.kind === 'tool' ? `⚙ ${e.tool ?? 'tool'}` : e.kind}</span>
                <span className="evals-entry-text">{e.text}</span>
              </li>
            ))}
            {entries.length === 0 && <li className="muted small">No transcript entries.</li>}
          </ol>
          {stderr && (
            <details>
              <summary className="small">stderr</summary>
              <pre className="terminal">{stderr}</pre>
            </details>
          )}
        </div>
        <div>
          <h4>
            Workspace diff{' '}
            {trial.changed.length ? (
              <span className="muted small">({plural(trial.changed.length, 'file')})</span>
            ) : null}
          </h4>
          {diff ? (
            <UnifiedDiff diff={diff} className="evals-diff" label="Workspace diff" />
          ) : (
            <p className="muted small">The agent changed nothing.</p>
          )}
        </div>
      </div>
    </div>
  );
}
