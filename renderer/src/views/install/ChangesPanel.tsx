import type { ReviewView } from '../../../../shared/ipc/channels/install';
import { UnifiedDiff } from '../../components/UnifiedDiff';

/** Update: what changed in the manifest (escalations first and highlighted), files, and text diffs. */
export function ChangesPanel({ review }: { review: ReviewView }) {
  const changes = [...(review.changes ?? [])].sort((a, b) => Number(b.escalation) - Number(a.escalation));
  return (
    <section className="panel inst-changes" aria-label="What changed">
      <h2>What changed</h2>
      <div className="inst-table-scroll">
        <table className="inst-table">
          <thead>
            <tr>
              <th>Field</th>
              <th>Before</th>
              <th>After</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr
                key={c.field}
                className={c.escalation ? 'escalation' : ''}
                data-field={c.field}
                data-escalation={c.escalation}
              >
                <td className="mono">{c.field}</td>
                <td className="mono">{c.before || '—'}</td>
                <td className="mono">{c.after || '—'}</td>
                <td>{c.escalation && <span className="inst-label escalation">escalation</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {review.fileChanges && review.fileChanges.length > 0 && (
        <>
          <h3>Files</h3>
          <ul className="inst-plain mono small">
            {review.fileChanges.map((f) => (
              <li key={f.path} className={`inst-fc ${f.change === '+' ? 'add' : f.change === '-' ? 'del' : ''}`}>
                {f.change} {f.path}
                {f.change === '+' && f.path.startsWith('scripts/') && (
                  <span className="inst-label escalation">new script</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {review.diffs?.map((d) => (
        <details key={d.path} className="inst-diff" open={review.diffs!.length <= 3}>
          <summary className="mono small">{d.path}</summary>
          <UnifiedDiff diff={d.diff} className="inst-diff-body" />
        </details>
      ))}
    </section>
  );
}
