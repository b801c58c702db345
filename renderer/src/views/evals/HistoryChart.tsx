import { useQuery } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import { useApi } from '../../api/context';
import { ErrorState } from '../../components/States';
import { Term } from '../../glossary';
import { queryKeys } from '../../query-keys';

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
    queryKey: queryKeys.evals.history(project.root, skill),
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
        <span className="muted small">
          pass rate per run and skill version · hollow:{' '}
          <Term term="baseline" plain>
            baseline
          </Term>{' '}
          without the skill
        </span>
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
                <line x1={LEFT - 8} x2={W - PAD} y1={y(v)} y2={y(v)} className="evals-chart-grid" />
                <text x={4} y={y(v) + 4} className="evals-chart-axis">
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
                      className="evals-baseline-point"
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
              <text key={r} x={x(r)} y={H - 6} className="evals-chart-axis" textAnchor="middle">
                {points.find((p) => p.runId === r)?.version}
              </text>
            ))}
          </svg>
          <ul className="evals-legend">
            {[...series.keys()].map((name, i) => (
              <li key={name}>
                <span className="evals-swatch" style={{ background: COLOURS[i % COLOURS.length] }} /> {name}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
