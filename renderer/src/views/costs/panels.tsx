import { formatTokens } from '../../format';
import type { CostsReport, SkillCost } from '../../../../shared/ipc/channels/reports';
import { formatCount } from '../../../../shared/text/format';

type ListingReport = CostsReport['listings'][number];

/** Standing every session against in context once used, per target, for one skill. */
export function SkillCostCard({
  skill,
  targets,
  color: c,
}: {
  skill: SkillCost;
  targets: readonly string[];
  color: string;
}) {
  const max = Math.max(1, ...targets.map((t) => Math.max(skill.perTarget[t] ?? 0, skill.loadedPerTarget[t] ?? 0)));
  return (
    <section className="panel" aria-labelledby="skill-cost-title" data-testid="skill-cost">
      <div className="panel-head">
        <h2 id="skill-cost-title">
          What adopting <span className="mono">{skill.skill}</span> costs
        </h2>
        <span className="muted small">standing every session vs. in context once used</span>
      </div>
      {skill.error && <p className="inline-error">{skill.error}</p>}
      <ul className="cost-chart">
        {targets.map((t) => {
          const s = skill.perTarget[t] ?? 0;
          const l = skill.loadedPerTarget[t] ?? 0;
          return (
            <li key={t} className="cost-row" data-target={t}>
              <div className="cost-label">
                <span className="bar-name">{t}</span>
              </div>
              <div className="cost-pair-bars">
                <div className="cost-track thin" title={`standing ${s} tok`}>
                  <span className="cost-seg" style={{ width: `${(s / max) * 100}%`, background: c }} />
                </div>
                <div className="cost-track thin" title={`loaded ${l} tok`}>
                  <span className="cost-seg loaded" style={{ width: `${(l / max) * 100}%` }} />
                </div>
              </div>
              <div className="bar-value small">
                <span data-testid="standing">{formatTokens(s)}</span> <span className="muted">/ {formatTokens(l)}</span>
              </div>
            </li>
          );
        })}
      </ul>
      {Object.entries(skill.notWritten ?? {})
        .filter(([t]) => targets.includes(t))
        .map(([t, why]) => (
          <p key={t} className="cost-notwritten small" data-target={t}>
            {t}: {why}
          </p>
        ))}
      <p className="muted small chart-note">
        <span className="cost-swatch inline" style={{ background: c }} /> standing per session ·{' '}
        <span className="cost-swatch inline loaded" /> loaded when used
      </p>
    </section>
  );
}

/** At most a dozen names, then how many more. */
function some(names: readonly string[]): string {
  return names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')} and ${names.length - 12} more`;
}

/** Each agent's skills listing at session start: descriptions cut, skills left out (issue 13). */
export function ListingPanel({ reports }: { reports: readonly ListingReport[] }) {
  if (reports.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="listing-title">
      <div className="panel-head">
        <h2 id="listing-title">Skills listing at session start</h2>
        <span className="muted small">
          descriptions share a character budget; past it the agent cuts them, names skills without them or leaves skills
          out
        </span>
      </div>
      <ul className="cost-listing">
        {reports.map((r) => (
          <li key={r.target} data-target={r.target} title={r.source}>
            <strong>{r.target}</strong>{' '}
            <span className="muted small">
              {formatCount(r.usedChars)}
              {r.totalChars !== undefined ? ` / ${formatCount(r.totalChars)}` : ''} chars
            </span>
            {r.truncated.length === 0 && r.dropped.length === 0 && r.nameOnly.length === 0 ? (
              <span className="small"> · everything fits</span>
            ) : null}
            {r.truncated.length > 0 ? (
              <span className="small">
                {' '}
                · cut at {r.perSkillChars} chars: {some(r.truncated)}
              </span>
            ) : null}
            {r.nameOnly.length > 0 ? (
              <span className="small cost-warn-text"> · named without a description: {some(r.nameOnly)}</span>
            ) : null}
            {r.dropped.length > 0 ? <span className="small cost-warn-text"> · left out: {some(r.dropped)}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
