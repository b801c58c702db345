import { plural } from '../../../shared/text/format';
import { useState } from 'react';
import type { Dashboard } from '../../../shared/ipc';
import './dash-problems.css';

const FIRST = 50;

export function Problems({ data, onSelect }: { data: Dashboard; onSelect: (dir: string) => void }) {
  const errors = data.problems.filter((p) => p.severity === 'error').length;
  const warnings = data.problems.length - errors;
  const [all, setAll] = useState(false);
  const shown = all ? data.problems : data.problems.slice(0, FIRST);
  return (
    <section className="panel" aria-labelledby="problems-title">
      <div className="panel-head">
        <h2 id="problems-title">Problems</h2>
        <span className="muted small">
          {plural(errors, 'error')} · {plural(warnings, 'warning')}
        </span>
      </div>
      {data.problems.length === 0 ? (
        <p className="dash-all-clear">
          <span aria-hidden="true">✓</span> No problems — every skill passes lint.
        </p>
      ) : (
        <ul className="dash-problems" aria-label="Problems">
          {shown.map((p, i) => (
            <li key={i} className={`dash-problem ${p.severity}`}>
              <span className="dash-sev" aria-label={p.severity}>
                {p.severity === 'error' ? '✕' : '!'}
              </span>
              <div className="dash-problem-body">
                <div className="dash-problem-head">
                  {p.skill ? (
                    <button type="button" className="link" onClick={() => onSelect(p.skill!)}>
                      {p.skill}
                    </button>
                  ) : (
                    <span className="dash-project-level">project</span>
                  )}
                  <span className="check-id">{p.source}</span>
                  {p.file && (
                    <span className="dash-where">
                      {p.file}
                      {p.line !== undefined ? `:${p.line}` : ''}
                    </span>
                  )}
                  {p.skill ? (
                    <a className="link" href={`#/editor/${encodeURIComponent(p.skill)}`} data-action="edit-skill">
                      Edit
                    </a>
                  ) : null}
                </div>
                <div className="dash-problem-msg">{p.message}</div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {shown.length < data.problems.length && (
        <button type="button" className="btn ghost dash-show-all" onClick={() => setAll(true)}>
          Show all {data.problems.length} problems
        </button>
      )}
    </section>
  );
}
