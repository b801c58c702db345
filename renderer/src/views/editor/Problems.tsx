import { memo } from 'react';
import type { Diagnostic, QuickFix } from './analyze';

/**
 * Every finding of the skill, in file order, each a link to its place; the quick fixes
 * are buttons beside it (the same ones Monaco offers at the marker with Ctrl+.).
 */
export const Problems = memo(function Problems({
  diagnostics,
  editable,
  onReveal,
  onFix,
}: {
  diagnostics: readonly Diagnostic[];
  /** Files open in the editor (a finding elsewhere — a script — can be read, not fixed here). */
  editable: ReadonlySet<string>;
  onReveal: (d: Diagnostic) => void;
  onFix: (d: Diagnostic, fix: QuickFix) => void;
}) {
  return (
    <div className="ed-problems" aria-label="Problems">
      <div className="ed-problems-head">
        <h2 className="label">Problems</h2>
        <span className="muted small">
          {diagnostics.length ? `${diagnostics.length}` : 'none — same checks as skillsmith lint'}
        </span>
      </div>
      <ul>
        {diagnostics.map((d, i) => (
          <li key={i} className={`ed-problem ${d.severity} ${d.blocking ? 'blocking' : ''}`} data-code={d.code}>
            <button type="button" onClick={() => onReveal(d)} disabled={!editable.has(d.file)} title={d.message}>
              <span className={`ed-sev ${d.severity}`} aria-label={d.severity}>
                {d.severity === 'error' ? '●' : '▲'}
              </span>
              <span className="mono small ed-loc">
                {d.file}:{d.range.startLine}:{d.range.startColumn}
              </span>
              {d.blocking ? <span className="pill ed-block">blocks install</span> : null}
              <span className="ed-msg">{d.message.split('\n')[0]}</span>
            </button>
            {d.fixes
              .filter((f) => f.command || editable.has(d.file))
              .map((f) => (
                <button
                  key={f.title}
                  type="button"
                  className="btn small ed-fix-btn"
                  title={f.title}
                  data-fix={f.command ? 'command' : 'edit'}
                  onClick={() => onFix(d, f)}
                >
                  {f.title}
                </button>
              ))}
          </li>
        ))}
      </ul>
    </div>
  );
});
