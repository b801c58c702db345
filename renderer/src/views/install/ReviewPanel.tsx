import type { ReviewNodeView, ReviewView } from '../../../../shared/ipc/channels/install';
import { declaresNothing, groupedHolds, permissionHolds, permissionSummary } from '../../../../shared/lock/holds';
import type { CheckId } from '../../../../shared/lint/types';
import { NEVER_ACCEPTABLE } from '../../../../shared/policy/exceptions';
import { formatTokens } from '../../format';
import { AcceptFinding, SkillFiles } from './ReviewFiles';

type Permission = ReviewNodeView['permissions'][number];
type Finding = ReviewNodeView['lint'][number];

/** `file:line:col–line:col` of a finding's first place, or the file alone. */
export function span(f: Finding): string | null {
  const l = f.locations[0];
  if (!l) return null;
  const end = l.endLine === l.line ? `${l.endColumn}` : `${l.endLine}:${l.endColumn}`;
  return `${l.file}:${l.line}:${l.column}–${end}`;
}

const HOT = new Set(['network', 'write']);

/**
 * Per permission: declared or not, what Skillsmith's runner holds on this machine, and what each target agent receives.
 */
function PermissionTable({ node, agents }: { node: ReviewNodeView; agents: ReviewView['agents'] }) {
  const holds = permissionHolds(node.permissions, agents);
  return (
    <>
      {declaresNothing(node.permissions) && (
        <p className="small" data-testid="declares-nothing">
          <strong>Declares no permissions.</strong> It says what the author asked for, not what the skill does: read its
          files below.
        </p>
      )}
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
                <div className="small">{holds[i]!.runner}</div>
              </td>
              <td data-field="agents">
                {agents.length === 0 ? (
                  <span className="muted small">no compile target is active</span>
                ) : (
                  groupedHolds(holds[i]!).map((g) => (
                    <div key={g.agents.join()} className="small" data-hold={g.hold}>
                      <span className={`inst-label ${g.hold === 'native' ? 'enforced' : 'advisory'}`}>{g.hold}</span>{' '}
                      {g.agents.join(', ')}: <span className="muted">{g.text}</span>
                    </div>
                  ))
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

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

function PermChips({ node }: { node: ReviewNodeView }) {
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
      {declaresNothing(node.permissions) && <span className="muted small">declares no permissions</span>}
    </span>
  );
}

/** The closure as a tree: each node with version, source and its own permissions. */
function ClosureTree({ review }: { review: ReviewView }) {
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
          {n.alreadyInstalled && <span className="inst-role installed">already installed — nothing written</span>}
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

function Findings({
  title,
  items,
  kind,
  accept,
}: {
  title: string;
  items: { node: string; f: Finding }[];
  kind: 'safety' | 'lint';
  accept?: { reviewId: string; onAccepted: () => void };
}) {
  if (!items.length) return null;
  return (
    <div className={`inst-findings ${kind}`}>
      <h3>{title}</h3>
      <ul>
        {items.map(({ node, f }, i) => (
          <li key={`${node}-${f.id}-${i}`} className={`inst-finding ${f.status}`} data-check={f.id}>
            <span className="inst-finding-mark" aria-hidden="true">
              {f.status === 'fail' ? '✕' : '!'}
            </span>
            <span className="check-id mono">{f.id}</span>
            <span className="inst-finding-node muted small">{node}</span>
            <span className="inst-finding-detail">{f.detail}</span>
            {span(f) && <span className="inst-span mono">{span(f)}</span>}
            {accept && kind === 'safety' && (
              <div className="inst-accept-row">
                {NEVER_ACCEPTABLE.has(f.id as CheckId) ? (
                  <span className="muted small" data-testid="accept-never">
                    Cannot be accepted: {NEVER_ACCEPTABLE.get(f.id as CheckId)}
                  </span>
                ) : (
                  f.locations
                    .slice(0, 5)
                    .map((l) => (
                      <AcceptFinding
                        key={`${l.file}:${l.line}`}
                        reviewId={accept.reviewId}
                        node={node}
                        check={f.id}
                        file={l.file}
                        line={l.line}
                        onAccepted={accept.onAccepted}
                      />
                    ))
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Findings a `[[policy.exceptions]]` entry accepts: always shown, with who and why. */
function AcceptedFindings({ review }: { review: ReviewView }) {
  const items = review.nodes.flatMap((n) => n.accepted.map((a) => ({ node: n.name, a })));
  if (!items.length) return null;
  return (
    <section className="panel inst-accepted" aria-label="Accepted by exception">
      <h3>Accepted by a reviewed exception (kitbash.toml)</h3>
      <p className="muted small">
        Each matches only this exact version: if any byte of the skill changes, the finding blocks again.
      </p>
      <ul>
        {items.map(({ node, a }) => (
          <li
            key={`${node}-${a.id}-${a.file}-${a.line}`}
            className="inst-finding warn"
            data-check={a.id}
            data-accepted="true"
          >
            <span className="inst-finding-mark" aria-hidden="true">
              !
            </span>
            <span className="check-id mono">{a.id}</span>
            <span className="inst-finding-node muted small">{node}</span>
            <span className="inst-finding-detail">
              {a.detail} — accepted by <strong>{a.by}</strong>: {a.reason}
            </span>
            <span className="inst-span mono">
              {a.file}:{a.line}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function StandingTable({ review }: { review: ReviewView }) {
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
              <span className={`pill ${s.loading}`}>{s.loading}</span>
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
  );
}

function NodeCard({
  node,
  agents,
  reviewId,
}: {
  node: ReviewNodeView;
  agents: ReviewView['agents'];
  reviewId: string;
}) {
  return (
    <section className="inst-node panel" aria-label={`Skill ${node.name}`} data-node={node.name}>
      <div className="inst-node-head">
        <div>
          <h2 className="inst-node-title">
            {node.name}
            <span className="mono muted">@{node.version}</span>
            <span className={`inst-role ${node.role}`}>{node.role}</span>
            {node.alreadyInstalled && <span className="inst-role installed">already installed</span>}
          </h2>
          <p className="inst-desc">{node.description}</p>
        </div>
      </div>
      <dl className="inst-facts">
        <dt>source</dt>
        <dd className="mono" data-field="source-raw">
          {node.source.raw || '—'}
        </dd>
        <dt>canonical</dt>
        <dd className="mono" data-field="source-canonical">
          {node.source.canonical || '—'}
        </dd>
        <dt>kind</dt>
        <dd>
          {node.source.kind}
          {node.source.commit && <span className="mono muted"> @ {node.source.commit}</span>}
          <span className="muted"> · found as {node.source.origin}</span>
        </dd>
        <dt>mode</dt>
        <dd>
          {node.manifest.mode} · {node.manifest.disclosure} disclosure
        </dd>
        {!node.manifested && (
          <>
            <dt>manifest</dt>
            <dd className="inst-warn-text">
              none (SKILL.md only) — defaults applied; the author declared no permissions or budget
            </dd>
          </>
        )}
        {node.manifest.commands.length > 0 && (
          <>
            <dt>commands</dt>
            <dd className="mono">{node.manifest.commands.join(', ')}</dd>
          </>
        )}
        {node.manifest.scripts.length > 0 && (
          <>
            <dt>scripts</dt>
            <dd className="mono">{node.manifest.scripts.join(', ')}</dd>
          </>
        )}
        {node.manifest.mcpServers.length > 0 && (
          <>
            <dt>MCP servers</dt>
            <dd className="mono inst-warn-text">
              {node.manifest.mcpServers.map((s) => `${s.name} (${s.transport}: ${s.subject})`).join(', ')}
            </dd>
          </>
        )}
        {node.requires.length > 0 && (
          <>
            <dt>requires</dt>
            <dd className="mono">{node.requires.join(', ')}</dd>
          </>
        )}
        {node.manifest.license && (
          <>
            <dt>license</dt>
            <dd>{node.manifest.license}</dd>
          </>
        )}
        {node.manifest.homepage && (
          <>
            <dt>homepage</dt>
            <dd className="mono">{node.manifest.homepage}</dd>
          </>
        )}
      </dl>
      <h3>Permissions</h3>
      <PermissionTable node={node} agents={agents} />
      <h3>Budget</h3>
      <dl className="inst-facts inst-budget" data-field="budget">
        <dt>budget</dt>
        <dd className="mono">{formatTokens(node.budget.budget)} tok</dd>
        <dt>body</dt>
        <dd className={`mono ${node.budget.bodyTokens > node.budget.budget ? 'inst-bad-text' : ''}`}>
          {formatTokens(node.budget.bodyTokens)} tok
        </dd>
        <dt>standing limit</dt>
        <dd className="mono">{formatTokens(node.budget.standing)} tok/session</dd>
        <dt>standing stub</dt>
        <dd className="mono">{formatTokens(node.budget.stubTokens)} tok</dd>
      </dl>
      {node.consumes.length > 0 && (
        <>
          <h3>Consumes</h3>
          <ul className="inst-plain">
            {node.consumes.map((c) => (
              <li key={c.artifact} className="mono small">
                {c.artifact} —{' '}
                {c.producedBy ? (
                  `produced by ${c.producedBy}`
                ) : (
                  <span className="inst-warn-text">no dependency produces it</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {node.files.length > 0 && (
        <details className="inst-node-files" open>
          <summary>{node.files.length} file(s) of this skill — open any to read it before approving</summary>
          <SkillFiles reviewId={reviewId} node={node} />
        </details>
      )}
    </section>
  );
}

/** The verdict at the top: blocked (with every reason) or ready for a decision. */
export function Verdict({ review, verb }: { review: ReviewView; verb: 'install' | 'update' }) {
  const root = review.nodes[0];
  const accepted = review.nodes.reduce((n, x) => n + x.accepted.length, 0);
  const hot = review.nodes.flatMap((n) =>
    n.permissions.filter((p) => p.declared && HOT.has(p.permission)).map((p) => `${n.name}: ${p.permission}`),
  );
  if (review.blockers.length) {
    return (
      <div className="inst-verdict blocked" role="alert" data-verdict="blocked">
        <div className="inst-verdict-icon" aria-hidden="true">
          ✕
        </div>
        <div>
          <h2>
            Blocked — {root?.name}@{root?.version} cannot be {verb === 'install' ? 'installed' : 'updated'}
          </h2>
          <ul className="inst-blockers">
            {review.blockers.map((b) => (
              <li key={b} className="mono">
                {b}
              </li>
            ))}
          </ul>
          <p className="inst-explain">
            Safety findings and the project's <code>[policy]</code> in <code>kitbash.toml</code> are not a question for
            the reviewer: there is no way to approve this review, here or from the command line. Nothing has been
            written to the project. The skill's author has to remove what is flagged, or whoever owns the project's
            policy has to change it — or, after reading a finding in its file, the project can accept that one finding
            of this exact version as a reviewed exception in <code>kitbash.toml</code>.
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className="inst-verdict ready" data-verdict="ready">
      <div className="inst-verdict-icon" aria-hidden="true">
        ?
      </div>
      <div>
        <h2>
          Review {root?.name}@{root?.version} before you {verb}
        </h2>
        <p className="inst-explain">
          No safety or policy finding blocks it.{' '}
          {review.nodes.length > 1 ? `${review.nodes.length} skills in the closure. ` : ''}
          {review.writes.length} file(s) will be written.{' '}
          {hot.length > 0 && <strong className="inst-hot-inline">Asks for: {hot.join(', ')}. </strong>}
          <span data-testid="permission-summary">{root ? permissionSummary(root.permissions, review.agents) : ''}</span>
          {accepted > 0 && (
            <strong className="inst-hot-inline" data-testid="accepted-headline">
              {' '}
              {accepted} blocking finding(s) accepted by a reviewed exception for exactly this version — read them
              below.
            </strong>
          )}
        </p>
      </div>
    </div>
  );
}

/** The whole review object, field for field. */
export function ReviewPanel({ review, onReReview }: { review: ReviewView; onReReview?: () => void }) {
  const safety = review.nodes.flatMap((n) => n.safety.map((f) => ({ node: n.name, f })));
  const lint = review.nodes.flatMap((n) =>
    n.lint
      .filter((f) => !n.safety.some((s) => s.id === f.id && s.detail === f.detail))
      .map((f) => ({ node: n.name, f })),
  );
  const policy = review.nodes.flatMap((n) => n.policy.map((p) => ({ node: n.name, p })));
  return (
    <div className="inst-review" data-review={review.root}>
      {(safety.length > 0 || policy.length > 0) && (
        <section className="panel inst-blocking" aria-label="Blocking findings">
          <Findings
            title="Safety findings (blocking)"
            items={safety}
            kind="safety"
            {...(onReReview ? { accept: { reviewId: review.id, onAccepted: onReReview } } : {})}
          />
          {policy.length > 0 && (
            <div className="inst-findings policy">
              <h3>Policy violations (blocking)</h3>
              <ul>
                {policy.map(({ node, p }) => (
                  <li key={`${node}-${p}`} className="inst-finding fail" data-check="policy">
                    <span className="inst-finding-mark" aria-hidden="true">
                      ✕
                    </span>
                    <span className="check-id mono">policy</span>
                    <span className="inst-finding-node muted small">{node}</span>
                    <span className="inst-finding-detail">{p}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}
      <AcceptedFindings review={review} />
      {review.changes && review.changes.length > 0 && <ChangesPanel review={review} />}
      <div className="inst-cols">
        <div className="inst-col-main">
          {review.nodes.map((n) => (
            <NodeCard key={n.name} node={n} agents={review.agents} reviewId={review.id} />
          ))}
        </div>
        <div className="inst-col-side">
          <section className="panel" aria-label="Dependency closure">
            <h2>Dependency closure</h2>
            <ClosureTree review={review} />
          </section>
          <section className="panel" aria-label="Standing cost">
            <h2>Standing cost per target</h2>
            <StandingTable review={review} />
          </section>
          {lint.length > 0 && (
            <section className="panel" aria-label="Lint findings">
              <Findings title="Lint findings" items={lint} kind="lint" />
            </section>
          )}
          {review.notices.length > 0 && (
            <section className="panel inst-notices" aria-label="Notices">
              <h2>Read this</h2>
              <ul className="inst-plain">
                {review.notices.map((n) => (
                  <li key={n}>⚠ {n}</li>
                ))}
              </ul>
            </section>
          )}
          <section className="panel" aria-label="Files written">
            <h2>{review.blockers.length ? 'Files it would write' : 'Files written on approval'}</h2>
            {review.blockers.length > 0 && <p className="muted small">Blocked: none of these is written.</p>}
            <ul className="inst-plain mono small inst-writes">
              {review.writes.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
            {review.compile && (
              <>
                <h3>Then compile</h3>
                {review.compile.errors.length ? (
                  <p className="inst-warn-text small">would refuse: {review.compile.errors[0]}</p>
                ) : review.compile.writes.length + review.compile.prunes.length === 0 ? (
                  <p className="muted small">changes no generated file</p>
                ) : (
                  <CompileList writes={review.compile.writes} prunes={review.compile.prunes} />
                )}
              </>
            )}
            <p className="muted small mono inst-integrity" title="the approval names exactly this hash">
              integrity {review.integrity}
            </p>
          </section>
        </div>
      </div>
    </div>
  );
}

function CompileList({ writes, prunes }: { writes: readonly string[]; prunes: readonly string[] }) {
  const list = (
    <ul className="inst-plain mono small inst-compile">
      {writes.map((w) => (
        <li key={w}>+ {w}</li>
      ))}
      {prunes.map((w) => (
        <li key={w} className="inst-prune">
          − {w}
        </li>
      ))}
    </ul>
  );
  if (writes.length + prunes.length <= 8) return list;
  return (
    <details>
      <summary className="small muted">
        writes {writes.length} generated file(s)
        {prunes.length ? `, prunes ${prunes.length}` : ''}
      </summary>
      {list}
    </details>
  );
}

/** Update: what changed in the manifest (escalations first and highlighted), files, and text diffs. */
function ChangesPanel({ review }: { review: ReviewView }) {
  const changes = [...(review.changes ?? [])].sort((a, b) => Number(b.escalation) - Number(a.escalation));
  return (
    <section className="panel inst-changes" aria-label="What changed">
      <h2>What changed</h2>
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
      {review.fileChanges && review.fileChanges.length > 0 && (
        <>
          <h3>Files</h3>
          <ul className="inst-plain mono small">
            {review.fileChanges.map((f) => (
              <li key={f.path} className={`inst-fc ${f.change === '+' ? 'add' : f.change === '-' ? 'del' : 'mod'}`}>
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
          <pre className="inst-diff-body">
            {d.diff.split('\n').map((line, i) => (
              <span
                key={i}
                className={
                  line.startsWith('+') && !line.startsWith('+++')
                    ? 'add'
                    : line.startsWith('-') && !line.startsWith('---')
                      ? 'del'
                      : line.startsWith('@@')
                        ? 'hunk'
                        : ''
                }
              >
                {line}
                {'\n'}
              </span>
            ))}
          </pre>
        </details>
      ))}
    </section>
  );
}
