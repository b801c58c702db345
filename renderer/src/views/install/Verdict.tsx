import type { ReviewView } from '../../../../shared/ipc/channels/install';
import { permissionSummary } from '../../../../shared/lock/holds';
import { Term } from '../../glossary';
import { Outcome } from './Outcome';
import { hotPermissions } from './review-facts';
import { BlockerList } from './lists';

/** The verdict at the top: blocked (with every reason) or ready for a decision. */
export function Verdict({ review, verb }: { review: ReviewView; verb: 'install' | 'update' }) {
  const root = review.nodes[0];
  const accepted = review.nodes.reduce((n, x) => n + x.accepted.length, 0);
  const hot = hotPermissions(review);
  if (review.blockers.length) {
    return (
      <Outcome kind="blocked" verdict="blocked" role="alert">
        <h2>
          Blocked — {root?.name}@{root?.version} cannot be {verb === 'install' ? 'installed' : 'updated'}
        </h2>
        <BlockerList blockers={review.blockers} />
        <p className="inst-explain">
          Safety findings and the project's <code>[policy]</code> in <code>kitbash.toml</code> are not a question for
          the reviewer: there is no way to approve this review, here or from the command line. Nothing has been written
          to the project. The skill's author has to remove what is flagged, or whoever owns the project's policy has to
          change it — or, after reading a finding in its file, the project can accept that one finding of this exact
          version as a <Term term="exception">reviewed exception</Term> in <code>kitbash.toml</code>.
        </p>
      </Outcome>
    );
  }
  return (
    <Outcome kind="ready" verdict="ready">
      <h2>
        Review {root?.name}@{root?.version} before you {verb}
      </h2>
      <p className="inst-explain">
        No safety or policy finding blocks it.{' '}
        {review.nodes.length > 1 ? `${review.nodes.length} skills in the closure. ` : ''}
        {review.writes.length} file(s) will be written.{' '}
        {hot.length > 0 && <strong className="inst-hot-inline">Asks for: {hot.join(', ')}. </strong>}
        <span data-testid="permission-summary">
          {root ? permissionSummary(root.permissions, review.agents, root.powers) : ''}
        </span>
        {accepted > 0 && (
          <strong className="inst-hot-inline" data-testid="accepted-headline">
            {' '}
            {accepted} blocking finding(s) accepted by a reviewed exception for exactly this version — read them below.
          </strong>
        )}
      </p>
    </Outcome>
  );
}
