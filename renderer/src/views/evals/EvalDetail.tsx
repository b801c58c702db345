import { useQuery } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { EvalResultView } from '../../../../shared/ipc/channels/evals';
import { useApi } from '../../api/context';
import { ErrorState, Spinner } from '../../components/States';
import { navigate } from '../../route';
import { evalFromTrial } from '../../../../shared/evals/template';
import { saveDraft } from '../editor/drafts';
import { evalsKeys } from './EvalsView';
import { useState } from 'react';

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
    queryKey: evalsKeys.trial(project.root, JSON.stringify(ask)),
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
        {trial.message ? ` · ${trial.message}` : ''}
      </p>
      <ul className="evals-assertions" aria-label="Trial assertions">
        {trial.assertions.map((a, i) => (
          <li key={i} className={a.status}>
            <span className={`label ${a.status === 'pass' ? 'ok' : a.status === 'unknown' ? 'warn' : 'bad'}`}>
              {a.status}
            </span>{' '}
            <code>{a.kind}</code> {a.detail}
          </li>
        ))}
      </ul>
      <div className="evals-columns">
        <div>
          <h4>Transcript</h4>
          {transcriptProblem && <div className="banner error small">{transcriptProblem}</div>}
          <ol className="evals-transcript" aria-label="Transcript">
            {entries.map((e, i) => (
              <li key={i} className={`entry ${e.kind}`}>
                <span className="entry-kind">{e.kind === 'tool' ? `⚙ ${e.tool ?? 'tool'}` : e.kind}</span>
                <span className="entry-text">{e.text}</span>
              </li>
            ))}
            {entries.length === 0 && <li className="muted small">No transcript entries.</li>}
          </ol>
          {stderr && (
            <details>
              <summary className="small">stderr</summary>
              <pre className="runs-pre">{stderr}</pre>
            </details>
          )}
        </div>
        <div>
          <h4>
            Workspace diff{' '}
            {trial.changed.length ? <span className="muted small">({trial.changed.length} file(s))</span> : null}
          </h4>
          {diff ? (
            <pre className="evals-diff" aria-label="Workspace diff">
              {diff.split('\n').map((l, i) => (
                <span
                  key={i}
                  className={
                    l.startsWith('+') && !l.startsWith('+++')
                      ? 'add'
                      : l.startsWith('-') && !l.startsWith('---')
                        ? 'del'
                        : l.startsWith('@@')
                          ? 'hunk'
                          : ''
                  }
                >
                  {l}
                  {'\n'}
                </span>
              ))}
            </pre>
          ) : (
            <p className="muted small">The agent changed nothing.</p>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * "Save this as an eval" (the Playground's pattern): the trial becomes a draft eval file
 * in the editor, which writes it only when the author saves it there.
 */
function SaveAsEval({
  project,
  skill,
  name,
  text,
}: {
  project: ProjectRef;
  skill: string;
  name: string;
  text: () => string;
}) {
  const [error, setError] = useState<string | null>(null);
  const file = `evals/${name}.eval.yaml`;
  return (
    <div className="evals-save">
      <button
        type="button"
        className="btn small"
        data-testid="save-as-eval"
        title={`Open ${file} in the editor with this trial's task and what it did as the expectations`}
        onClick={() => {
          if (!saveDraft(project.root, skill, file, text(), null))
            return setError('the browser refused to keep the draft (storage full or disabled)');
          navigate({ view: 'editor', arg: `${skill}/${file}` });
        }}
      >
        Save this as an eval
      </button>
      {error && <span className="small bad">{error}</span>}
    </div>
  );
}

const W = 640;
const H = 160;
const PAD = 28;
/** Room for the axis labels left of the plot. */
const LEFT = 44;
const COLOURS = ['var(--accent)', 'var(--accent-2)', 'var(--lazy)', 'var(--eager)', 'var(--ok)'];

/** Pass rate per stored run, one line per eval × runner, each point labelled with the skill version. */
export function HistoryChart({ project, skill }: { project: ProjectRef; skill: string }) {
  const api = useApi();
  const q = useQuery({
    queryKey: evalsKeys.history(project.root, skill),
    queryFn: () => api.evals.history({ skill }),
    retry: false,
  });
  const points = q.data?.points ?? [];
  const runs = [...new Set(points.map((p) => p.runId))];
  const series = new Map<string, typeof points>();
  for (const p of points) series.set(`${p.eval} · ${p.runner}`, [...(series.get(`${p.eval} · ${p.runner}`) ?? []), p]);
  const x = (runId: string): number =>
    LEFT + (runs.length > 1 ? ((W - LEFT - PAD) * runs.indexOf(runId)) / (runs.length - 1) : (W - LEFT - PAD) / 2);
  const y = (rate: number): number => H - PAD - rate * (H - 2 * PAD);
  return (
    <section className="panel" aria-label="Pass rate history">
      <div className="panel-head">
        <h3>History</h3>
        <span className="muted small">pass rate per run and skill version · hollow: baseline without the skill</span>
      </div>
      {q.isError ? (
        <ErrorState error={q.error} />
      ) : points.length === 0 ? (
        <p className="muted small">No stored runs yet.</p>
      ) : (
        <>
          <svg
            className="evals-chart"
            viewBox={`0 0 ${W} ${H}`}
            role="img"
            aria-label={`Pass rate history of ${skill}`}
          >
            {[0, 0.5, 1].map((v) => (
              <g key={v}>
                <line x1={LEFT - 8} x2={W - PAD} y1={y(v)} y2={y(v)} className="grid" />
                <text x={4} y={y(v) + 4} className="axis">
                  {Math.round(v * 100)}%
                </text>
              </g>
            ))}
            {[...series.entries()].map(([name, ps], i) => (
              <g key={name} style={{ color: COLOURS[i % COLOURS.length] }}>
                <polyline
                  fill="none"
                  stroke="currentColor"
                  strokeWidth={2}
                  points={ps.map((p) => `${x(p.runId)},${y(p.passRate)}`).join(' ')}
                />
                {ps.map((p) =>
                  p.baselinePassRate === null ? null : (
                    <circle
                      key={`b-${p.runId}`}
                      cx={x(p.runId)}
                      cy={y(p.baselinePassRate)}
                      r={3.5}
                      fill="var(--panel)"
                      stroke="currentColor"
                      strokeWidth={1.5}
                      className="baseline-point"
                    >
                      <title>{`${name}: ${Math.round(p.baselinePassRate * 100)}% without the skill (baseline, ${p.startedAt})`}</title>
                    </circle>
                  ),
                )}
                {ps.map((p) => (
                  <circle key={p.runId} cx={x(p.runId)} cy={y(p.passRate)} r={4} fill="currentColor">
                    <title>{`${name}: ${Math.round(p.passRate * 100)}% with ${skill}@${p.version}${p.baselinePassRate !== null ? `, ${Math.round(p.baselinePassRate * 100)}% without` : ''} (${p.startedAt})`}</title>
                  </circle>
                ))}
              </g>
            ))}
            {runs.map((r) => (
              <text key={r} x={x(r)} y={H - 6} className="axis" textAnchor="middle">
                {points.find((p) => p.runId === r)?.version}
              </text>
            ))}
          </svg>
          <ul className="evals-legend">
            {[...series.keys()].map((name, i) => (
              <li key={name}>
                <span className="swatch" style={{ background: COLOURS[i % COLOURS.length] }} /> {name}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
