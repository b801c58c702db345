import type { ReviewView } from '../../../../shared/ipc/channels/install';
import { formatTokens } from '../../format';
import { Word } from '../../glossary';

/** What installing adds to every session of each active target, before anyone uses the skill. */
export function StandingTable({ review }: { review: ReviewView }) {
  if (!review.standing.length) {
    if (review.agents.length === 0)
      return <p className="muted small">No compile targets are active, so no standing cost is added per target.</p>;
    return (
      <p className="small inst-warn-text" data-testid="standing-unknown">
        Not computed: compile{' '}
        {review.compile?.errors.length ? `would refuse (${review.compile.errors[0]})` : 'could not be planned'}, so the
        cost for {review.agents.map((a) => a.agent).join(', ')} is unknown.
      </p>
    );
  }
  return (
    <div className="inst-table-scroll">
      <table className="inst-table inst-standing" aria-label="Standing cost per target">
        <thead>
          <tr>
            <th>Target</th>
            <th>Loading</th>
            <th>Now</th>
            <th>After install</th>
            <th>Adds per session</th>
          </tr>
        </thead>
        <tbody>
          {review.standing.map((s) => (
            <tr key={s.target} data-target={s.target}>
              <td className="mono">{s.target}</td>
              <td>
                <span className={`pill ${s.loading}`}>
                  <Word word={s.loading} plain />
                </span>
              </td>
              <td className="num">{formatTokens(s.before)}</td>
              <td className="num">{formatTokens(s.after)}</td>
              <td className={`num ${s.after - s.before > 0 ? 'inst-delta' : ''}`} data-delta={s.after - s.before}>
                {s.after - s.before >= 0 ? '+' : '−'}
                {formatTokens(Math.abs(s.after - s.before))} tok
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
