import type { RestrictionRowView } from '../../../../shared/ipc/channels/runs';
import { Term } from '../../glossary';

/** The label main gives a restriction this machine does not hold. */
export const ADVISORY = 'advisory — not enforced here';
/** The permissions a manifest declares; their rows are highlighted. */
const DECLARED = new Set(['network', 'filesystem']);

/** Each restriction of a run, what it is held to, and whether this machine holds it. */
export function LabelsTable({ rows, caption }: { rows: readonly RestrictionRowView[]; caption: string }) {
  return (
    <div className="runs-table-scroll">
      <table className="runs-labels" aria-label={caption}>
        <thead>
          <tr>
            <th>restriction</th>
            <th>held to</th>
            <th>on this machine</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.id}
              data-row={r.id}
              className={`${DECLARED.has(r.id) ? 'declared' : ''} ${r.label === ADVISORY ? (r.required ? 'unheld required' : 'unheld') : ''}`}
            >
              <td className="mono">{r.id}</td>
              <td>{r.what}</td>
              <td>
                <span
                  className={`status-label ${r.label === ADVISORY ? (r.required ? 'bad' : 'warn') : 'ok'}`}
                  data-label
                >
                  {r.label === ADVISORY ? (
                    <>
                      <Term term="advisory" plain /> — not enforced here
                    </>
                  ) : (
                    r.label
                  )}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
