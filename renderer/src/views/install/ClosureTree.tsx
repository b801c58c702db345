import type { ReviewNodeView, ReviewView } from '../../../../shared/ipc/channels/install';
import { PermChips } from './PermissionTable';

/** The closure as a tree: each node with version, source and its own permissions. */
export function ClosureTree({ review }: { review: ReviewView }) {
  const byName = new Map(review.nodes.map((n) => [n.name, n]));
  const root = review.nodes[0];
  if (!root) return null;
  const render = (n: ReviewNodeView, seen: ReadonlySet<string>, range?: string) => {
    const next = new Set(seen).add(n.name);
    return (
      <li key={n.name} className="inst-tree-node" data-node={n.name}>
        <div className="inst-tree-row">
          <span className="inst-tree-name">
            {n.name}
            <span className="mono">@{n.version}</span>
          </span>
          {range && <span className="muted small mono">({range})</span>}
          <span className={`inst-role ${n.role}`}>{n.role}</span>
          {n.alreadyInstalled && <span className="inst-role">already installed — nothing written</span>}
          {(n.safety.length > 0 || n.policy.length > 0) && <span className="inst-role blocked">blocks</span>}
        </div>
        <div className="inst-tree-src mono small">
          {n.source.raw || '—'}
          {n.source.canonical && n.source.canonical !== n.source.raw && (
            <span className="muted"> → {n.source.canonical}</span>
          )}
          {n.source.commit && <span className="muted"> @ {n.source.commit.slice(0, 12)}</span>}
          <span className="muted"> · {n.source.origin}</span>
        </div>
        <PermChips node={n} />
        {n.dependencies.length > 0 && (
          <ul className="inst-tree">
            {n.dependencies.map((d) => {
              const child = byName.get(d.name);
              if (!child || seen.has(d.name))
                return (
                  <li key={d.name} className="muted small mono">
                    {d.name}@{d.version} (cycle or not in closure)
                  </li>
                );
              return render(child, next, d.range);
            })}
          </ul>
        )}
      </li>
    );
  };
  return (
    <ul className="inst-tree inst-tree-root" aria-label="Dependency closure">
      {render(root, new Set())}
    </ul>
  );
}
