import type { EnforcementCell, MatrixReport } from '../../../../shared/ipc/channels/reports';
import { HELD_LABEL, HELD_PERMISSIONS } from '../../../../shared/targets/enforcement';

/**
 * Where each declared permission holds when the agent runs a skill's scripts itself (SPEC
 * D200): "enforced in the agent" only where a hook routes the run through the sandbox; the
 * reason is on every cell. The project's own agents come first.
 */
export function EnforcementTable({ report }: { report: Pick<MatrixReport, 'enforcement' | 'targets' | 'active'> }) {
  const active = report.active.targets;
  const targets = [...report.targets].sort((a, b) => Number(active.includes(b)) - Number(active.includes(a)));
  const cell = (t: string, p: string): EnforcementCell | undefined =>
    report.enforcement.find((c) => c.target === t && c.permission === p);
  return (
    <section className="panel" aria-labelledby="held-title" data-testid="enforcement">
      <h2 id="held-title">Declared permissions inside each agent</h2>
      <p className="muted small">
        The agent runs a skill&apos;s scripts itself. Where a hook routes that run through Skillsmith&apos;s sandbox,
        the declared network, write and reads hold there too; elsewhere they are advisory.
      </p>
      <div className="matrix-held-scroll">
        <table className="matrix-held">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              {HELD_PERMISSIONS.map((p) => (
                <th scope="col" key={p}>
                  {p}
                </th>
              ))}
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {targets.map((t) => (
              <tr key={t}>
                <th scope="row">
                  {t}
                  {active.includes(t) ? <span className="muted small"> · this project</span> : null}
                </th>
                {HELD_PERMISSIONS.map((p) => {
                  const c = cell(t, p);
                  return (
                    <td
                      key={p}
                      className={c?.status === 'enforced' ? 'matrix-held-on' : 'matrix-held-off'}
                      title={c?.why}
                    >
                      {c ? HELD_LABEL[c.status] : '—'}
                    </td>
                  );
                })}
                <td className="small muted matrix-held-why">{cell(t, 'network')?.why}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
