import type { ReviewNodeView, ReviewView } from '../../../../shared/ipc/channels/install';
import { permissionHolds, permissionSummary, type ReviewAgent } from '../../../../shared/lock/holds';
import { Term } from '../../glossary';
import { Outcome } from './Outcome';
import { HOT, hotPermissions } from './review-facts';
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
          It cannot be approved as it is, here or from the command line, and nothing has been written to the project.
          Safety findings and the project's <code>[policy]</code> in <code>kitbash.toml</code> are not the reviewer's
          call: the skill's author has to remove what is flagged, or whoever owns the policy has to change it. Or, after
          reading a safety finding in its file — or checking where an unsigned or untrusted skill comes from — you can
          accept that one finding of this exact version as a <Term term="exception">reviewed exception</Term> in{' '}
          <code>kitbash.toml</code>; the skill is then reviewed again.
        </p>
      </Outcome>
    );
  }
  return (
    <Outcome kind="ready" verdict="ready">
      <h2>
        Review {root?.name}@{root?.version} before you {verb}
      </h2>
      <dl className="inst-glance" data-testid="glance">
        <dt>In the coding agents</dt>
        <dd data-testid="permission-summary">
          {root ? permissionSummary(root.permissions, review.agents, root.powers) : ''}
        </dd>
        {review.nodes.map((n) => (
          <ScriptFacts key={n.name} node={n} agents={review.agents} named={review.nodes.length > 1} />
        ))}
        <dt>Approving writes</dt>
        <dd>{review.writes.length === 1 ? '1 file' : `${review.writes.length} files`}, listed below</dd>
      </dl>
      <p className="inst-explain small">
        No safety or policy finding blocks it.{' '}
        {review.nodes.length > 1 ? `${review.nodes.length} skills in the closure. ` : ''}
        {hot.length > 0 && <strong className="inst-hot-inline">Asks for: {hot.join(', ')}. </strong>}
        {accepted > 0 && (
          <strong className="inst-hot-inline" data-testid="accepted-headline">
            {accepted === 1 ? '1 blocking finding' : `${accepted} blocking findings`} accepted by a reviewed exception
            for exactly this version — read them below.
          </strong>
        )}
      </p>
    </Outcome>
  );
}

/** What a skill's scripts may do when Skillsmith's runner runs them: its network and write rows, word for word. */
function ScriptFacts({
  node,
  agents,
  named,
}: {
  node: ReviewNodeView;
  agents: readonly ReviewAgent[];
  named: boolean;
}) {
  const holds = permissionHolds(node.permissions, agents, node.powers);
  return (
    <>
      <dt>{named ? `${node.name}'s scripts` : 'Its scripts'}</dt>
      <dd>
        {holds
          .filter((h) => HOT.has(h.permission))
          .map((h) => (
            <div key={h.permission} data-fact={h.permission} className={h.declared ? 'inst-hot-inline' : ''}>
              {h.permission}: {h.runner}
            </div>
          ))}
      </dd>
    </>
  );
}
