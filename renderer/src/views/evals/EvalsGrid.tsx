import type { EvalsOverview } from '../../../../shared/ipc/channels/evals';
import { Term } from '../../glossary';
import { cellKey, deltaText, pct, type Cell } from './eval-text';

type SkillRow = EvalsOverview['skills'][number];
export interface Picked {
  eval: string;
  runner: string;
}

/** Each eval of the skill against each runner: pass rate, effect against the baseline, triggering. */
export function EvalsGrid({
  skill,
  runnerIds,
  cells,
  picked,
  onPick,
}: {
  skill: SkillRow;
  runnerIds: readonly string[];
  cells: ReadonlyMap<string, Cell>;
  picked: Picked | null;
  onPick: (p: Picked) => void;
}) {
  return (
    <section className="panel" aria-label="Evals by runner">
      <div className="panel-head">
        <h3>Evals × runners</h3>
        <span className="muted small">
          pass rate (threshold) · effect vs.{' '}
          <Term term="baseline" plain>
            baseline
          </Term>{' '}
          · triggered
        </span>
      </div>
      <div className="evals-grid-scroll">
        <table className="evals-grid">
          <thead>
            <tr>
              <th>eval</th>
              {runnerIds.map((id) => (
                <th key={id}>{id}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {skill.evals.map((e) => (
              <tr key={e.name}>
                <th scope="row">
                  <span className="skill-name">{e.name}</span> <span className="muted small">{e.tier}</span>
                  {e.description && <div className="muted small">{e.description}</div>}
                </th>
                {runnerIds.map((id) => {
                  const c = cells.get(cellKey(e.name, id));
                  const on = picked?.eval === e.name && picked.runner === id;
                  return (
                    <td key={id}>
                      {c ? (
                        <button
                          type="button"
                          className={`evals-cell ${c.result.passed ? 'pass' : 'fail'} ${on ? 'active' : ''}`}
                          data-cell={`${e.name}/${id}`}
                          onClick={() => onPick({ eval: e.name, runner: id })}
                        >
                          <strong>
                            {c.result.passed ? '✓' : '✗'} {pct(c.result.passRate)}
                          </strong>
                          <span className="small muted"> (≥ {pct(c.result.threshold)})</span>
                          {c.result.baselinePassRate !== null && (
                            <span className="evals-delta" data-testid="delta">
                              baseline {pct(c.result.baselinePassRate)} · effect {deltaText(c.result)}
                            </span>
                          )}
                          <span className="small muted">
                            {c.result.trigger
                              ? `precision ${pct(c.result.trigger.precision)} · recall ${pct(c.result.trigger.recall)}`
                              : `triggered ${pct(c.result.triggeredRate)}`}
                          </span>
                        </button>
                      ) : (
                        <span className="muted small">not run</span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
