import type { ReviewNodeView } from '../../../../shared/ipc/channels/install';
import {
  groupedPowers,
  isGrant,
  powerLabel,
  statusText,
  type Power,
  type PowerStatus,
} from '../../../../shared/lock/powers';

/**
 * Everything the compiled skill can make each agent do (hooks, tool grants, load-time
 * commands, settings, MCP servers, executables), per group of agents that receive the same,
 * each power with its exact text and whether the agent acts on it (shared/lock/powers.ts).
 */
export function PowersTable({ node }: { node: ReviewNodeView }) {
  const p = node.powers;
  const none = p.agents.length ? p.agents.every((a) => a.powers.length === 0) : p.carried.length === 0;
  return (
    <div className="inst-powers" data-testid="powers" aria-label={`Powers of ${node.name}`} role="group">
      <h3 className="inst-powers-title">What it can make each agent do</h3>
      {p.note && <p className="small inst-warn-text">{p.note}</p>}
      {none ? (
        <p className="small muted" data-testid="no-powers">
          None: no hooks, tool grants, load-time commands, MCP servers or executables.
        </p>
      ) : p.agents.length === 0 ? (
        <>
          <p className="small muted">No compile target is active: what an agent would act on once compiled.</p>
          <PowerList rows={p.carried} />
        </>
      ) : (
        groupedPowers(p.agents).map((g) => (
          <div key={g.agents.join()} className="inst-powers-group" data-agents={g.agents.join(', ')}>
            <div className="small">
              <strong>{g.agents.join(', ')}</strong>
              {g.powers.length === 0 && <span className="muted"> — none</span>}
            </div>
            <PowerList rows={g.powers} />
          </div>
        ))
      )}
    </div>
  );
}

function PowerList({ rows }: { rows: readonly (Power & { status?: PowerStatus })[] }) {
  if (rows.length === 0) return null;
  return (
    <ul className="inst-plain">
      {rows.map((x) => {
        const status = x.status;
        const hot = isGrant(x.kind) && status !== 'dropped' && status !== 'inert';
        return (
          <li
            key={`${x.kind}\0${x.value}`}
            className={`small ${hot ? 'inst-power-hot' : ''}`}
            data-power={x.kind}
            data-status={status ?? 'carried'}
          >
            <span className="inst-power-kind">{powerLabel(x.kind)}</span> <code className="mono">{x.value}</code>
            {status && <span className="muted"> — {statusText(x.kind, status)}</span>}
          </li>
        );
      })}
    </ul>
  );
}
