import { useState } from 'react';
import { plural } from '../../../../shared/text/format';
import type { ProjectRef } from '../../../../shared/ipc';
import type { PlanAnswer, RunTarget } from '../../../../shared/ipc/channels/runs';
import { Spinner } from '../../components/States';
import { Term } from '../../glossary';
import { LabelsTable } from './LabelsTable';
import { Output } from './Output';
import { WritesPanel } from './Writes';
import { OverrideDialog } from './OverrideDialog';
import { PlanBox } from './PlanBox';
import { RefusalBox } from './RefusalBox';
import { errorText } from './run-text';
import { useSkillRun } from './use-skill-run';

/** One skill: pick a script (or its gate) and arguments, see how it would be confined, run it and watch it. */
export function SkillRuns({ project, target }: { project: ProjectRef; target: RunTarget }) {
  const r = useSkillRun(project, target);
  const { start, cancel, plan } = r;
  const [override, setOverride] = useState(false);

  if (r.choices.length === 0) {
    return (
      <section className="panel">
        <h2>{target.dir}</h2>
        <p className="muted">This skill has no scripts/ to run.</p>
      </section>
    );
  }
  const answer: PlanAnswer | undefined = plan.data;
  const refusal = answer && !answer.ok ? answer.refusal : null;

  return (
    <>
      <section className="panel runs-setup" aria-label={`Run ${target.dir}`}>
        <TargetHead target={target} gate={r.gate} />
        <div className="form-row">
          <label>
            <span className="muted small">Script</span>
            <select
              aria-label="Script"
              value={r.choice}
              onChange={(e) => r.setChoice(e.target.value)}
              disabled={r.running}
            >
              {r.choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <label className="runs-args-label">
            <span className="muted small">Arguments</span>
            <input
              className="runs-args"
              aria-label="Arguments"
              value={r.argText}
              onChange={(e) => r.setArgText(e.target.value)}
              disabled={r.running}
              placeholder="none"
            />
          </label>
          <button
            type="button"
            className="btn primary"
            data-testid="run"
            disabled={!answer?.ok || r.running || start.isPending}
            onClick={() => start.mutate({})}
          >
            {start.isPending ? <Spinner label="Starting" /> : '▶'} Run
          </button>
          {r.running && (
            <button
              type="button"
              className="btn"
              data-testid="cancel"
              onClick={() => cancel.mutate(r.runId!)}
              disabled={cancel.isPending}
            >
              Cancel
            </button>
          )}
        </div>
        {/* The output streams right under the Run button it answers, above the long restrictions table. */}
        {r.runId && <Output run={r.run} runId={r.runId} />}
        {r.run?.exit?.writes && <WritesPanel writes={r.run.exit.writes} />}
        {plan.isFetching && (
          <p className="small muted">
            <Spinner label="Checking the run" /> Checking what would run and how it is confined…
          </p>
        )}
        {plan.isError && (
          <div className="inline-error" role="alert">
            {errorText(plan.error, 'runs.plan')}
          </div>
        )}
        {refusal && (
          <RefusalBox
            refusal={refusal}
            onOverride={refusal.reason === 'unenforced' ? () => setOverride(true) : undefined}
          />
        )}
        {r.refusedAtStart && <RefusalBox refusal={r.refusedAtStart} onOverride={undefined} />}
        {r.startError && (
          <div className="inline-error" role="alert">
            {r.startError}
          </div>
        )}
        {answer?.ok && <PlanBox plan={answer.plan} />}
        {!answer && target.rows.length > 0 && <LabelsTable rows={target.rows} caption="Sandbox labels" />}
      </section>
      {override && r.ask && (
        <OverrideDialog
          ask={r.ask}
          onClose={() => setOverride(false)}
          onConfirm={(token) => {
            setOverride(false);
            start.mutate({ overrideToken: token });
          }}
        />
      )}
    </>
  );
}

/** The skill's name, version and declared permissions; its check verdict and any problem loading it. */
function TargetHead({ target, gate }: { target: RunTarget; gate: boolean }) {
  return (
    <>
      <div className="panel-head">
        <h2>
          {target.dir}{' '}
          <span className="muted small">
            {target.version ? `v${target.version}` : ''}{' '}
            {gate && (
              <>
                · <Term term="gate" />
              </>
            )}
          </span>
        </h2>
        {target.permissions && (
          <span className="runs-perms small">
            <span className={`runs-perm ${target.permissions.network ? 'on' : ''}`}>
              network = {String(target.permissions.network)}
            </span>
            <span className={`runs-perm ${target.permissions.write ? 'on' : ''}`}>
              write = {String(target.permissions.write)}
            </span>
            {target.permissions.tools.length > 0 && (
              <span className="runs-perm">tools: {target.permissions.tools.join(', ')}</span>
            )}
          </span>
        )}
      </div>
      {target.verdict && (
        <p className={`small ${target.verdict.blocking.length ? 'inline-error' : 'muted'}`} data-testid="runs-verdict">
          Checks: {plural(target.verdict.failures, 'failure')}, {target.verdict.warnings}{' '}
          <Term term="warning">{target.verdict.warnings === 1 ? 'warning' : 'warnings'}</Term>
          {target.verdict.blocking.length > 0 && (
            <>
              , {target.verdict.blocking.length} blocking — runs are refused until it is fixed or accepted by a{' '}
              <Term term="exception">reviewed exception</Term>
            </>
          )}
          {target.verdict.accepted > 0 && (
            <>
              , {target.verdict.accepted} accepted by <Term term="exception">exception</Term>
            </>
          )}
        </p>
      )}
      {target.problem && (
        <div className="inline-error" role="alert">
          {target.problem} <span className="muted small">(skill loader)</span>
        </div>
      )}
    </>
  );
}
