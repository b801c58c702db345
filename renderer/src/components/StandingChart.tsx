import type { Dashboard } from '../../../shared/ipc';
import { formatTokens } from '../format';
import { Word } from '../glossary';

/** Total standing context cost per session, one bar per target the project compiles for. */
export function StandingChart({ data }: { data: Dashboard }) {
  const rows = data.standingByTarget;
  const max = Math.max(1, ...rows.map((r) => r.tokens ?? 0));
  return (
    <section className="panel" aria-labelledby="standing-title">
      <div className="panel-head">
        <h2 id="standing-title">Standing context cost</h2>
        <span className="muted small">tokens every session, before any skill is used</span>
      </div>
      {rows.length === 0 ? (
        <div className="empty-panel">
          <p className="muted">
            No target is active: no agent folder (<code>.claude/</code>, <code>.cursor/</code>, …) was found and{' '}
            <code>[project].targets</code> names none.
          </p>
          <a className="btn" href="#/settings" data-action="choose-targets">
            Choose targets…
          </a>
        </div>
      ) : (
        <ul className="bars" aria-label="Standing cost per target">
          {rows.map((r) => {
            const pct = r.tokens === null ? 0 : Math.max(1.5, (r.tokens / max) * 100);
            return (
              <li key={r.target} className="bar-row" data-target={r.target}>
                <div className="bar-label">
                  <span className="bar-name">{r.target}</span>
                  <span className={`pill ${r.loading}`}>
                    <Word word={r.loading} />
                  </span>
                </div>
                <div className="bar-track" title={r.label}>
                  <div
                    className={`bar-fill ${r.loading} ${r.tokens === null ? 'unknown' : ''}`}
                    style={{ width: `${r.tokens === null ? 100 : pct}%` }}
                  />
                </div>
                <div className="bar-value">{r.tokens === null ? 'n/a' : `${formatTokens(r.tokens)} tok`}</div>
              </li>
            );
          })}
        </ul>
      )}
      <p className="chart-note muted small">
        Lazy targets keep only each skill's description resident; eager targets load the whole text into every session.
      </p>
    </section>
  );
}
