import { plural } from '../../../../shared/text/format';
import type { EvalsOverview } from '../../../../shared/ipc/channels/evals';
import { totalUsage, usageTotalText } from '../../../../shared/evals/usage';
import { ErrorState } from '../../components/States';
import { Term } from '../../glossary';
import type { EvalRun } from './use-eval-run';

type SkillRow = EvalsOverview['skills'][number];

/** Run a skill's evals: runner, trials and baseline, then the run's progress. */
export function EvalRunPanel({ overview, skill, run }: { overview: EvalsOverview; skill: SkillRow; run: EvalRun }) {
  const {
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
  } = run;
  // Tokens of the run so far, over the evals already finished.
  const runUsage = progress ? totalUsage(progress.results.flatMap((r) => r.trialResults)) : null;
  return (
    <section className="panel" aria-label="Run evals">
      <div className="panel-head">
        <h3>
          {skill.name} <span className="muted small">{skill.version}</span>
        </h3>
      </div>
      {skill.refused ? (
        <div className="banner error" role="alert" data-testid="evals-refused">
          Evals of {skill.name} are refused: {skill.refused}.
        </div>
      ) : (
        <div className="form-row">
          <label>
            <span className="small muted">Runner</span>
            <select aria-label="Runner" value={runner} onChange={(e) => setRunner(e.target.value)} disabled={running}>
              {configured.length > 0 && (
                <option value="">each configured runner ({configured.map((r) => r.id).join(', ')})</option>
              )}
              {overview.runners.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.id} — {r.preset && !r.configured ? 'preset, ' : ''}
                  {r.available ? `target ${r.target}` : 'not installed here'}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="small muted">Trials per eval</span>
            <input
              className="evals-repeat"
              aria-label="Trials per eval"
              type="number"
              min={1}
              max={100}
              placeholder="as its file says"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
              disabled={running}
            />
          </label>
          <label className="evals-check">
            <input
              type="checkbox"
              checked={baseline}
              onChange={(e) => setBaseline(e.target.checked)}
              disabled={running}
            />{' '}
            <Term term="baseline">baseline</Term> (without the skill)
          </label>
          {running ? (
            <button type="button" className="btn danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              Cancel
            </button>
          ) : (
            <button
              type="button"
              className="btn primary"
              onClick={() => start.mutate(request())}
              disabled={start.isPending}
            >
              Run evals
            </button>
          )}
        </div>
      )}
      {start.data && !start.data.ok && (
        <div className="banner error" role="alert">
          {start.data.message}
        </div>
      )}
      {start.isError && <ErrorState error={start.error} />}
      {approval}
      {progress && (
        <div className="evals-progress" data-testid="evals-progress" aria-live="polite">
          <div
            className="evals-meter"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={progress.total}
            aria-valuenow={progress.done}
          >
            <div
              className="evals-meter-fill"
              style={{ width: `${progress.total ? (100 * progress.done) / progress.total : 100}%` }}
            />
          </div>
          <span className="small muted">
            {progress.state === 'running'
              ? `trial ${progress.done} of ${progress.total}`
              : progress.cancelled
                ? `cancelled after ${progress.done} of ${progress.total} trials`
                : progress.state === 'failed'
                  ? `failed: ${progress.message ?? ''}`
                  : `done — ${plural(progress.done, 'trial')}`}
          </span>
          {runUsage && <span className="small muted">tokens: {usageTotalText(runUsage)}</span>}
          {progress.problems.map((p) => (
            <div key={p} className="banner error small">
              {p}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
