import type { ReviewNodeView } from '../../../../shared/ipc/channels/install';
import { plural } from '../../../../shared/text/format';
import type { ReviewAgent } from '../../../../shared/lock/holds';
import { describeSignature } from '../../../../shared/policy/signature';
import { formatTokens } from '../../format';
import { Term, Word } from '../../glossary';
import { PermissionTable } from './PermissionTable';
import { PowersTable } from './PowersTable';
import { SkillFiles } from './SkillFiles';

/** One skill of the closure, field for field: source, manifest, permissions, budget, what it consumes, its files. */
export function NodeCard({
  node,
  agents,
  reviewId,
}: {
  node: ReviewNodeView;
  agents: readonly ReviewAgent[];
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
            {node.alreadyInstalled && <span className="inst-role">already installed</span>}
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
        {node.signature && (
          <>
            <dt>signature</dt>
            <dd
              className={node.signature.state === 'verified' ? undefined : 'inst-warn-text'}
              data-field="signature"
              data-state={node.signature.state}
            >
              {describeSignature(node.signature)}
            </dd>
          </>
        )}
        <dt>mode</dt>
        <dd>
          <Word word={node.manifest.mode} /> · <Word word={node.manifest.disclosure} /> disclosure
        </dd>
        {!node.manifested && (
          <>
            <dt>manifest</dt>
            <dd className="inst-warn-text">
              none — a <Term term="bare">bare</Term> SKILL.md: defaults applied; no skill.toml declares its network,
              writes or budget (its SKILL.md powers are listed below)
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
      <PowersTable node={node} />
      <h3>Budget</h3>
      <dl className="inst-facts inst-budget" data-field="budget">
        <dt>budget</dt>
        <dd className="mono">{formatTokens(node.budget.budget)} tok</dd>
        <dt>body</dt>
        <dd className={`mono ${node.budget.bodyTokens > node.budget.budget ? 'inst-bad-text' : ''}`}>
          {formatTokens(node.budget.bodyTokens)} tok
        </dd>
        <dt>
          <Term term="standing">standing</Term> limit
        </dt>
        <dd className="mono">{formatTokens(node.budget.standing)} tok/session</dd>
        <dt>
          standing <Term term="stub">stub</Term>
        </dt>
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
          <summary>{plural(node.files.length, 'file')} of this skill — open any to read it before approving</summary>
          <SkillFiles reviewId={reviewId} node={node} />
        </details>
      )}
    </section>
  );
}
