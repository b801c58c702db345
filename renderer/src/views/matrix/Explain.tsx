import { useEffect, useRef } from 'react';
import { isTargetId } from '../../../../shared/targets/registry';
import { Spinner } from '../../components/States';
import { formatTokens } from '../../format';
import { useExplain } from '../../queries';
import { navigate } from '../../route';

/** One cell explained, as `skillsmith explain` reports it: what the agent receives, why, and the cost. */
export function Explain({
  root,
  skill,
  target,
  dir,
}: {
  root: string;
  skill: string;
  target: string;
  dir: string | undefined;
}) {
  // A route naming an unknown target asks nothing: the drawer says there is no such cell.
  const known = isTargetId(target);
  const report = useExplain(root, skill, known ? target : undefined);
  const ref = useRef<HTMLElement>(null);
  const ready = !known || !report.isPending;
  useEffect(() => {
    if (ready) ref.current?.focus();
  }, [skill, target, ready]);
  const close = (): void => navigate({ view: 'matrix' });
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const x = known ? report.data : null;
  if (!x) {
    return (
      <aside className="drawer" role="dialog" aria-label="Explanation" tabIndex={-1} ref={ref}>
        {known && report.isPending ? (
          <p className="muted">
            <Spinner label="Explaining" /> Explaining {skill} on {target}…
          </p>
        ) : (
          <p className="muted">
            {report.isError ? report.error.message : `No skill "${skill}" or target "${target}" in this project.`}
          </p>
        )}
        <button type="button" className="btn" onClick={close}>
          Close
        </button>
      </aside>
    );
  }
  const t = x.target;
  return (
    <aside
      className="drawer matrix-explain"
      role="dialog"
      aria-label={`${skill} on ${target}`}
      tabIndex={-1}
      ref={ref}
      data-testid="explain"
    >
      <div className="drawer-head">
        <div>
          <h2>
            {skill} <span className="muted">→</span> {target}
          </h2>
          <span className={`status-chip ${x.cell.status}`} data-testid="explain-status">
            {x.cell.status}
          </span>
        </div>
        <button type="button" className="icon-btn" aria-label="Close" onClick={close}>
          ×
        </button>
      </div>
      <p className="drawer-desc">
        {x.cell.status === 'full'
          ? `${t.agent} receives ${skill} as authored.`
          : x.cell.status === 'degraded'
            ? `${t.agent} receives a weaker version of ${skill}.`
            : `${t.agent} drops ${skill} or never triggers it.`}
      </p>
      {x.cell.reasons.length > 0 && (
        <>
          <h3>Why</h3>
          <ul className="notes">
            {x.cell.reasons.map((r) => (
              <li key={r.code + r.message} className={`note ${x.cell.status}`} data-reason={r.code}>
                <span className="note-k">{r.code}</span> {r.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="drawer-facts">
        <div>
          <span className="fact-k">Loading</span>
          <span>{t.loading}</span>
        </div>
        <div>
          <span className="fact-k">Standing / session</span>
          <span>{x.standingTokens === null ? 'n/a' : `${formatTokens(x.standingTokens)} tok`}</span>
        </div>
        <div>
          <span className="fact-k">When loaded</span>
          <span>{x.loadedTokens === null ? 'n/a' : `${formatTokens(x.loadedTokens)} tok`}</span>
        </div>
      </div>
      <h3>What {target} delivers</h3>
      <ul className="matrix-explain-list">
        <li>
          <span className="fact-k">agent</span> {t.agent}
        </li>
        <li>
          <span className="fact-k">writes</span> <span className="mono">{t.outputs.join(', ')}</span>
        </li>
        <li>
          <span className="fact-k">capabilities</span>{' '}
          {t.capabilities.length ? t.capabilities.join(', ') : 'instructions only'}
        </li>
        <li>
          <span className="fact-k">skill requires</span>{' '}
          {x.requires.length ? x.requires.join(', ') : 'nothing beyond instructions'}
        </li>
        <li>
          <span className="fact-k">authored</span> {x.disclosure}
        </li>
        <li>
          <span className="fact-k">format</span> {t.vendorDoc.title}{' '}
          <span className="muted">(checked {t.vendorDoc.checked})</span>
        </li>
      </ul>
      {x.notes.length > 0 && (
        <>
          <h3>Notes</h3>
          <ul className="notes">
            {x.notes.map((n) => (
              <li key={n} className="note info">
                {n}
              </li>
            ))}
          </ul>
        </>
      )}
      {dir && (
        <div className="matrix-explain-actions">
          <button type="button" className="btn primary" onClick={() => navigate({ view: 'previews', arg: dir })}>
            Preview {skill}'s output
          </button>
        </div>
      )}
    </aside>
  );
}
