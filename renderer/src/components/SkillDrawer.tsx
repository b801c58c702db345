import type { SkillRow } from '../../../shared/ipc';
import { formatTokens } from '../format';
import { verdictWords } from './SkillsTable';
import { useSkill } from '../queries';
import { ErrorState, Spinner } from './States';
import { useEscape } from '../use-escape';
import { Term } from '../glossary';
import './dash-drawer.css';
import { formatCount } from '../../../shared/text/format';

export function SkillDrawer({
  root,
  row,
  dir,
  onClose,
  onRepin,
}: {
  root: string;
  row: SkillRow | undefined;
  dir: string;
  onClose: () => void;
  /** Review this skill for pinning (offered when its files drifted or it was never pinned). */
  onRepin: (row: SkillRow) => void;
}) {
  const detail = useSkill(root, dir);
  useEscape(onClose);

  return (
    <aside className="drawer" role="dialog" aria-label={`Skill ${dir}`}>
      <div className="drawer-head">
        <div>
          <h2>{row?.name ?? dir}</h2>
          <div className="muted small mono">{detail.data?.path ?? `.kitbash/skills/${dir}`}</div>
        </div>
        <a
          className="btn"
          style={{ marginLeft: 'auto' }}
          href={`#/editor/${encodeURIComponent(dir)}`}
          data-action="edit-skill"
        >
          Open in editor
        </a>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {row && (
        <div className="drawer-facts">
          <div>
            <span className="fact-k">version</span>
            <span className="mono">{row.version ?? '—'}</span>
          </div>
          <div>
            <span className="fact-k">body</span>
            <span className="mono">{formatTokens(row.bodyTokens)} tok</span>
          </div>
          <div>
            <span className="fact-k">budget</span>
            <span className="mono">{formatTokens(row.budget)} tok</span>
          </div>
          <div>
            <span className="fact-k">
              <Term term="stub" />
            </span>
            <span className="mono">{formatTokens(row.stubTokens)} tok</span>
          </div>
          <div>
            <span className="fact-k">mode</span>
            <span>{row.mode ?? '—'}</span>
          </div>
          <div>
            <span className="fact-k">lock</span>
            <span>
              {row.lock}
              {(row.lock === 'drift' || row.lock === 'unlocked') && (
                <>
                  {' '}
                  <button type="button" className="link" onClick={() => onRepin(row)} data-action="repin-skill">
                    {row.lock === 'drift' ? 'Re-pin…' : 'Pin…'}
                  </button>
                </>
              )}
            </span>
          </div>
        </div>
      )}
      {row?.description && <p className="drawer-desc">{row.description}</p>}
      {detail.isPending ? (
        <p className="muted">
          <Spinner label="Loading skill" /> Loading…
        </p>
      ) : detail.isError ? (
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
      ) : (
        <>
          <h3>Checks</h3>
          {row && (
            <p className={`small ${row.lint.blocking ? 'inline-error' : 'muted'}`} data-testid="drawer-verdict">
              {verdictWords(row.lint)}
            </p>
          )}
          <ul className="dash-checks">
            {detail.data.checks.map((c, i) => (
              <li key={i} className={`dash-check ${c.status}`}>
                <span className="dash-check-mark">{c.status === 'pass' ? '✓' : c.status === 'fail' ? '✕' : '!'}</span>
                <span className="check-id">{c.id}</span>
                {c.detail && <span className="dash-check-detail">{c.detail}</span>}
              </li>
            ))}
          </ul>
          <h3>Files</h3>
          <ul className="dash-files mono small">
            {detail.data.files.map((f) => (
              <li key={f.path}>
                <span>{f.path}</span>
                <span className="muted">{formatCount(f.bytes)} B</span>
              </li>
            ))}
          </ul>
          {detail.data.skillMd !== null && (
            <>
              <h3>SKILL.md</h3>
              <pre className="dash-drawer-source">{detail.data.skillMd}</pre>
            </>
          )}
        </>
      )}
    </aside>
  );
}
