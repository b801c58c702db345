import type { ReviewNodeView } from '../../../../shared/ipc/channels/install';
import { declaresNothing, groupedHolds, permissionHolds, type ReviewAgent } from '../../../../shared/lock/holds';
import { Word } from '../../glossary';
import { HOT } from './review-facts';

type Permission = ReviewNodeView['permissions'][number];

/**
 * Per permission: declared or not, what Skillsmith's runner holds on this machine, and what each target agent receives.
 */
export function PermissionTable({ node, agents }: { node: ReviewNodeView; agents: readonly ReviewAgent[] }) {
  const holds = permissionHolds(node.permissions, agents, node.powers);
  // Every tool row's runner sentence is the same: said once under the table, not on each row.
  const toolRunner = holds.find((h) => h.permission.startsWith('tool:'))?.runner;
  return (
    <>
      {declaresNothing(node.permissions, node.powers) && (
        <p className="small" data-testid="declares-nothing">
          <strong>Declares no permissions.</strong> It says what the author asked for, not what the skill does: read its
          files below.
        </p>
      )}
      <div className="inst-table-scroll">
        <table className="inst-table inst-perms" aria-label={`Permissions of ${node.name}`}>
          <thead>
            <tr>
              <th>Permission</th>
              <th>Declared</th>
              <th>Skillsmith&apos;s runner (this machine)</th>
              <th>In the coding agents</th>
            </tr>
          </thead>
          <tbody>
            {node.permissions.map((p, i) => (
              <tr
                key={p.permission}
                data-permission={p.permission}
                className={HOT.has(p.permission) && p.declared ? 'hot' : ''}
              >
                <td className="mono">
                  {p.permission}
                  {HOT.has(p.permission) && p.declared && (
                    <span className="inst-hot-tag">
                      {p.permission === 'network' ? 'reaches the network' : 'writes files'}
                    </span>
                  )}
                </td>
                <td>
                  {p.declared ? <strong>yes</strong> : <span className="muted">no</span>}
                  {p.declaredIn && <span className="muted small"> ({p.declaredIn})</span>}
                </td>
                <td data-field="runner">
                  {!(HOT.has(p.permission) && p.declared) && <Enforcement p={p} />}
                  {!isTool(p) && <div className="small">{holds[i]!.runner}</div>}
                </td>
                <td data-field="agents">
                  {agents.length === 0 ? (
                    <span className="muted small">no compile target is active</span>
                  ) : (
                    groupedHolds(holds[i]!).map((g) => (
                      <div key={g.agents.join()} className="small" data-hold={g.hold}>
                        <span className={`inst-label ${g.hold === 'advisory' ? 'advisory' : 'enforced'}`}>
                          <Word word={g.hold} plain />
                        </span>{' '}
                        {g.agents.join(', ')}: <span className="muted">{g.text}</span>
                      </div>
                    ))
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {toolRunner && (
        <p className="small muted" data-testid="tools-runner">
          Tools, in Skillsmith&apos;s runner: {toolRunner}
        </p>
      )}
    </>
  );
}

const isTool = (p: Permission): boolean => p.permission.startsWith('tool:');

function Enforcement({ p }: { p: Permission }) {
  if (!p.enforcement) return <span className="muted">not probed</span>;
  return (
    <span className="inst-enf">
      <span
        className={`inst-label ${p.enforcement.label}`}
        data-enforcement={p.enforcement.label}
        title={p.enforcement.detail}
      >
        {p.enforcement.label}
      </span>
    </span>
  );
}

/** The declared permissions as chips, each with how Skillsmith's runner holds it here. */
export function PermChips({ node }: { node: ReviewNodeView }) {
  return (
    <span className="inst-chips">
      {node.permissions
        .filter((p) => p.declared)
        .map((p) => (
          <span
            key={p.permission}
            className={`inst-chip ${HOT.has(p.permission) ? 'hot' : ''}`}
            title={
              p.enforcement && !HOT.has(p.permission)
                ? `${p.enforcement.label} in Skillsmith's runner${p.enforcement.detail ? ` — ${p.enforcement.detail}` : ''}`
                : undefined
            }
          >
            {p.permission.replace(/^tool:/, '')}
            {p.enforcement && !HOT.has(p.permission) && (
              <span className={`inst-chip-enf ${p.enforcement.label}`}>{p.enforcement.label}</span>
            )}
          </span>
        ))}
      {declaresNothing(node.permissions, node.powers) && <span className="muted small">declares no permissions</span>}
    </span>
  );
}
