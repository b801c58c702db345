import { useMemo, useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { CompileSnapshot } from '../../../../shared/ipc/channels/compile';
import { TARGETS } from '../../../../shared/targets/registry';
import { AddSkillActions, EmptyState, ErrorState } from '../../components/States';
import { formatTokens } from '../../format';
import { navigate } from '../../route';
import { activeTargets, snapshotCosts, snapshotListings, type SkillCost } from '../previews/live';
import type { ListingReport } from '../../../../shared/targets/listing';
import { useCompileSnapshot } from '../previews/queries';
import '../previews/previews.css';
import './costs.css';
import { Word } from '../../glossary';

/** Distinct, readable hues for the skills' segments (cycled). */
const HUES = [248, 200, 160, 32, 330, 280, 96, 12, 180, 56];
const color = (i: number): string => `hsl(${HUES[i % HUES.length]} 62% 56%)`;

/** Standing context cost: what every session pays per agent, for the project and per skill. */
export function CostsView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const snapshot = useCompileSnapshot(project.root);
  if (snapshot.isPending)
    return (
      <main className="dashboard">
        <p className="muted">Reading the project…</p>
      </main>
    );
  if (snapshot.isError)
    return (
      <main className="dashboard">
        <ErrorState error={snapshot.error} onRetry={() => void snapshot.refetch()} />
      </main>
    );
  return <Costs snap={snapshot.data} focus={arg} />;
}

function Costs({ snap, focus }: { snap: CompileSnapshot; focus: string | undefined }) {
  const { skills, failures } = useMemo(() => snapshotCosts(snap), [snap]);
  const active = useMemo(() => activeTargets(snap).targets, [snap]);
  const listings = useMemo(() => snapshotListings(snap), [snap]);
  const [scope, setScope] = useState<'all' | 'active'>('all');
  const targets = TARGETS.filter((t) => scope === 'all' || active.includes(t.id));
  const selected = skills.find((s) => s.skill === focus);
  const totals = targets.map((t) => ({ t, total: skills.reduce((n, s) => n + (s.perTarget[t.id] ?? 0), 0) }));
  const max = Math.max(1, ...totals.map((x) => x.total));

  if (skills.length === 0) {
    return (
      <main className="dashboard">
        <EmptyState title="No skills to price" actions={<AddSkillActions />}>
          Install or create a skill to see what it costs each agent per session.
        </EmptyState>
      </main>
    );
  }

  return (
    <main className="dashboard costs-view">
      <section className="panel" aria-labelledby="cost-title">
        <div className="panel-head">
          <div>
            <h2 id="cost-title">Standing context cost per session</h2>
            <p className="muted small costs-sub">
              Tokens each agent holds in every session before any skill is used. Lazy agents keep only each skill's
              description; eager ones load the whole text.
            </p>
          </div>
          <div className="segmented" role="group" aria-label="Targets shown">
            <button
              type="button"
              className={scope === 'all' ? 'on' : ''}
              aria-pressed={scope === 'all'}
              onClick={() => setScope('all')}
            >
              All targets <span className="count">{TARGETS.length}</span>
            </button>
            <button
              type="button"
              className={scope === 'active' ? 'on' : ''}
              aria-pressed={scope === 'active'}
              onClick={() => setScope('active')}
            >
              Active here <span className="count">{active.length}</span>
            </button>
          </div>
        </div>
        <ul className="cost-chart" aria-label="Standing cost per target, by skill">
          {totals.map(({ t, total }) => (
            <li
              key={t.id}
              className={`cost-row ${active.includes(t.id) ? 'active' : ''}`}
              data-target={t.id}
              data-total={total}
            >
              <div className="cost-label">
                <span className="bar-name">{t.id}</span>
                <span className={`pill ${t.loading}`}>
                  <Word word={t.loading} />
                </span>
              </div>
              <div
                className="cost-track"
                role="img"
                aria-label={`${t.id}: ${total} tokens per session — ${skills.map((s) => `${s.skill} ${s.perTarget[t.id] ?? 'n/a'}`).join(', ')}`}
              >
                {skills.map((s, i) => {
                  const v = s.perTarget[t.id] ?? 0;
                  if (v === 0) return null;
                  return (
                    <span
                      key={s.skill}
                      className={`cost-seg ${selected && selected.skill !== s.skill ? 'faded' : ''}`}
                      style={{ width: `${(v / max) * 100}%`, background: color(i) }}
                      title={`${s.skill}: ${v.toLocaleString('en-US')} tok on ${t.id}`}
                      data-skill={s.skill}
                    />
                  );
                })}
              </div>
              <div className="bar-value">{formatTokens(total)} tok</div>
            </li>
          ))}
        </ul>
        <div className="cost-legend" role="group" aria-label="Skills">
          {skills.map((s, i) => (
            <button
              key={s.skill}
              type="button"
              className={`legend-item ${selected?.skill === s.skill ? 'on' : ''}`}
              onClick={() => navigate({ view: 'costs', ...(selected?.skill === s.skill ? {} : { arg: s.skill }) })}
              aria-pressed={selected?.skill === s.skill}
            >
              <span className="swatch" style={{ background: color(i) }} />
              {s.skill}
            </button>
          ))}
        </div>
        {failures.length > 0 && (
          <p className="muted small">Not priced (does not load): {failures.map((f) => f.name).join(', ')}</p>
        )}
      </section>

      <ListingPanel reports={listings.filter((r) => scope === 'all' || active.includes(r.target))} />

      {selected ? (
        <SkillCostCard skill={selected} targets={targets.map((t) => t.id)} color={color(skills.indexOf(selected))} />
      ) : null}

      <section className="panel" aria-labelledby="per-skill-title">
        <div className="panel-head">
          <h2 id="per-skill-title">Per skill</h2>
          <span className="muted small">standing tokens per session · click a skill for its breakdown</span>
        </div>
        <div className="cost-table-scroll">
          <table className="cost-table">
            <thead>
              <tr>
                <th scope="col">skill</th>
                {targets.map((t) => (
                  <th key={t.id} scope="col" className={active.includes(t.id) ? 'active' : ''}>
                    {t.id}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {skills.map((s) => {
                const rowMax = Math.max(1, ...targets.map((t) => s.perTarget[t.id] ?? 0));
                return (
                  <tr key={s.skill} data-skill={s.skill} className={selected?.skill === s.skill ? 'on' : ''}>
                    <th scope="row">
                      <button type="button" className="link" onClick={() => navigate({ view: 'costs', arg: s.skill })}>
                        {s.skill}
                      </button>
                      <span className={`pill ${s.disclosure}`}>{s.disclosure}</span>
                    </th>
                    {targets.map((t) => {
                      const v = s.perTarget[t.id];
                      return (
                        <td
                          key={t.id}
                          data-target={t.id}
                          data-tokens={v ?? ''}
                          style={{ ['--heat' as string]: v === null || v === undefined ? 0 : v / rowMax }}
                        >
                          {v === null || v === undefined ? 'n/a' : formatTokens(v)}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">project</th>
                {totals.map(({ t, total }) => (
                  <td key={t.id} data-target={t.id}>
                    {formatTokens(total)}
                  </td>
                ))}
              </tr>
            </tfoot>
          </table>
        </div>
      </section>
    </main>
  );
}

function SkillCostCard({ skill, targets, color: c }: { skill: SkillCost; targets: readonly string[]; color: string }) {
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
            <li key={t} className="cost-row pair" data-target={t}>
              <div className="cost-label">
                <span className="bar-name">{t}</span>
              </div>
              <div className="pair-bars">
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
      <p className="muted small chart-note">
        <span className="swatch inline" style={{ background: c }} /> standing per session ·{' '}
        <span className="swatch inline loaded" /> loaded when used
      </p>
    </section>
  );
}

/** Each agent's skills listing at session start: descriptions cut, skills left out (issue 13). */
function ListingPanel({ reports }: { reports: readonly ListingReport[] }) {
  if (reports.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="listing-title">
      <div className="panel-head">
        <h2 id="listing-title">Skills listing at session start</h2>
        <span className="muted small">
          descriptions share a character budget; past it the agent cuts them or leaves skills out
        </span>
      </div>
      <ul className="listing-rows">
        {reports.map((r) => (
          <li key={r.target} data-target={r.target} title={r.source}>
            <strong>{r.target}</strong>{' '}
            <span className="muted small">
              {r.usedChars.toLocaleString('en-US')}
              {r.totalChars !== undefined ? ` / ${r.totalChars.toLocaleString('en-US')}` : ''} chars
            </span>
            {r.truncated.length === 0 && r.dropped.length === 0 ? (
              <span className="small"> · everything fits</span>
            ) : null}
            {r.truncated.length > 0 ? (
              <span className="small">
                {' '}
                · cut at {r.perSkillChars} chars: {r.truncated.join(', ')}
              </span>
            ) : null}
            {r.dropped.length > 0 ? <span className="small warn-text"> · left out: {r.dropped.join(', ')}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
