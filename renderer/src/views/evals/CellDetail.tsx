import { useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { totalUsage, usageTotalText } from '../../../../shared/evals/usage';
import { Assertions } from './Assertions';
import type { Cell } from './eval-text';
import { TrialPanel } from './TrialPanel';

/** One eval on one runner: its assertions over all trials, and each trial (with or without the skill) to open. */
export function CellDetail({ project, cell }: { project: ProjectRef; cell: Cell }) {
  const r = cell.result;
  const usage = totalUsage(r.trialResults);
  const [trial, setTrial] = useState<{ baseline: boolean; index: number } | null>(
    r.trialResults[0] ? { baseline: r.trialResults[0].baseline, index: r.trialResults[0].index } : null,
  );
  return (
    <section className="panel" aria-label="Eval result">
      <div className="panel-head">
        <h3>
          {r.eval} on {r.runner}
        </h3>
        <span className="muted small">
          run {cell.runId} · {r.skill}@{r.version}
        </span>
      </div>
      {r.error && <div className="banner error">{r.error}</div>}
      {usage && <p className="small muted">Tokens: {usageTotalText(usage)}</p>}
      <Assertions items={r.assertions} label="Assertions" />
      <div className="evals-trials" role="tablist" aria-label="Trials">
        {r.trialResults.map((t) => (
          <button
            key={`${t.baseline}-${t.index}`}
            type="button"
            role="tab"
            aria-selected={trial?.baseline === t.baseline && trial.index === t.index}
            className={`evals-trial ${t.passed ? 'pass' : 'fail'}`}
            onClick={() => setTrial({ baseline: t.baseline, index: t.index })}
            title={t.task}
          >
            {t.baseline ? 'baseline' : 'skill'} {t.index + 1} ·{' '}
            {t.passed ? 'pass' : t.outcome === 'completed' ? 'fail' : t.outcome}
          </button>
        ))}
      </div>
      {trial && (
        <TrialPanel project={project} runId={cell.runId} result={r} baseline={trial.baseline} index={trial.index} />
      )}
    </section>
  );
}
