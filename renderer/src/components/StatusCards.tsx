import type { ReactNode } from 'react';
import type { Dashboard, StatusCard } from '../../../shared/ipc';
import { Word } from '../glossary';
import './dash-cards.css';

const ICON: Record<StatusCard['state'], string> = { ok: '✓', warn: '!', error: '✕', none: '–', unavailable: '…' };
const WORD: Record<StatusCard['state'], string> = {
  ok: 'OK',
  warn: 'Attention',
  error: 'Problem',
  none: 'Not set up',
  unavailable: 'Not available',
};

/** Skills the lock card can pin: files changed since they were pinned, or never pinned. */
export function repinnable(data: Dashboard): Dashboard['skills'] {
  return data.skills.filter((s) => s.lock === 'drift' || s.lock === 'unlocked');
}

const MISSING = /: pinned in kitbash\.lock but not installed$/;

/** The lock, policy and compiled-output cards, each with the action that deals with it. */
export function StatusCards({
  data,
  onCompile,
  onRepin,
}: {
  data: Dashboard;
  onCompile: () => void;
  onRepin: () => void;
}) {
  const pinnable = repinnable(data);
  const drifted = pinnable.some((s) => s.lock === 'drift');
  const missing = data.problems.some((p) => p.source === 'lock' && p.skill === null && MISSING.test(p.message));
  const action = (c: StatusCard): ReactNode => {
    if (c === data.lock) {
      if (pinnable.length)
        return (
          <button type="button" className={`btn ${drifted ? 'primary' : ''}`} onClick={onRepin} data-action="repin">
            {drifted ? 'Review and re-pin…' : 'Review and pin…'}
          </button>
        );
      if (missing)
        return (
          <a className="btn" href="#/install" data-action="reinstall" title="install the missing skills again">
            Install…
          </a>
        );
      return null;
    }
    if (c === data.policy) {
      return (
        <a className="btn" href="#/settings" data-action="open-settings">
          Settings
        </a>
      );
    }
    if (c === data.compiled && c.state !== 'unavailable' && c.state !== 'none') {
      return (
        <button
          type="button"
          className={`btn ${c.state === 'ok' ? '' : 'primary'}`}
          onClick={onCompile}
          data-action="compile"
        >
          Compile…
        </button>
      );
    }
    return null;
  };
  return (
    <div className="dash-cards">
      {[data.lock, data.policy, data.compiled].map((c) => (
        <div key={c.title} className={`dash-card ${c.state}`} data-card={c.title}>
          <span className="dash-card-icon" aria-hidden="true">
            {ICON[c.state]}
          </span>
          <div className="dash-card-body">
            <div className="dash-card-title">
              {c.title} <span className="dash-card-word">{WORD[c.state]}</span>
            </div>
            <div className="dash-card-detail">{c.detail}</div>
          </div>
          {action(c)}
        </div>
      ))}
    </div>
  );
}

export function Targets({ data }: { data: Dashboard }) {
  const active = data.targets.filter((t) => t.active);
  const other = data.targets.filter((t) => !t.active);
  return (
    <section className="panel" aria-labelledby="targets-title">
      <div className="panel-head">
        <h2 id="targets-title">Targets</h2>
        <span className="muted small">
          {active.length} of {data.targets.length} compiled for
        </span>
      </div>
      <ul className="dash-targets">
        {active.map((t) => (
          <li key={t.id} className="dash-target active" title={t.label}>
            <span className="dash-target-id">{t.id}</span>
            <span className="dash-target-agent">{t.label}</span>
            <span className="dash-target-tags">
              {t.configured && <span className="tag">configured</span>}
              {t.detected && <span className="tag">detected</span>}
              <span className={`pill ${t.loading}`}>
                <Word word={t.loading} />
              </span>
            </span>
          </li>
        ))}
      </ul>
      {other.length > 0 && (
        <details className="dash-targets-other">
          <summary>{other.length} other targets not in use</summary>
          <ul className="dash-targets">
            {other.map((t) => (
              <li key={t.id} className="dash-target" title={t.label}>
                <span className="dash-target-id">{t.id}</span>
                <span className="dash-target-agent">{t.label}</span>
                <span className="dash-target-tags">{t.detected && <span className="tag">detected</span>}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
