import { formatTokens } from '../../format';
import { FileCard } from './FileCard';
import type { TargetPreview } from '../../../../shared/ipc/channels/compile';

export function TargetDetail({ preview: t }: { preview: TargetPreview }) {
  return (
    <div
      className="pv-detail"
      role="tabpanel"
      id={`ppanel-${t.target}`}
      aria-labelledby={`ptab-${t.target}`}
      data-target={t.target}
    >
      <div className="pv-detail-head">
        <div>
          <span className="pv-detail-agent">{t.agent}</span>
          <span className={`pill ${t.loading}`}>{t.loading}</span>
          <span className={`status-chip ${t.status}`} data-testid="target-status">
            {t.status}
          </span>
        </div>
        <div className="pv-detail-costs">
          <span title="resident in every session, before the skill is used">
            <b data-testid="standing-tokens">{formatTokens(t.standingTokens)}</b> tok standing
          </span>
          <span title="in context once the skill is used">
            <b data-testid="loaded-tokens">{formatTokens(t.loadedTokens)}</b> tok loaded
          </span>
        </div>
      </div>
      {t.inactive && (
        <div className="banner warn" role="status" data-testid="inactive-note">
          {t.target} is not a target of this project. This is what compile would write for it if you added{' '}
          <code>&quot;{t.target}&quot;</code> to <code>[project].targets</code> in kitbash.toml.
        </div>
      )}
      {t.loading === 'lazy' ? (
        <p className="muted small pv-detail-explain">
          Lazy: only the description stays in context; the agent loads the body when the skill is used.
        </p>
      ) : (
        <p className="muted small pv-detail-explain">
          Eager: the whole text is in context in every session, whether the skill is used or not.
        </p>
      )}
      {(t.reasons.length > 0 || t.warnings.length > 0 || t.notes.length > 0) && (
        <ul className="notes">
          {t.reasons.map((r) => (
            <li key={`r-${r.code}-${r.message}`} className={`note ${t.status}`} data-reason={r.code}>
              <span className="note-k">{r.code}</span> {r.message}
            </li>
          ))}
          {t.warnings.map((w) => (
            <li key={`w-${w}`} className="note warn">
              <span className="note-k">warning</span> {w}
            </li>
          ))}
          {t.notes.map((n) => (
            <li key={`n-${n}`} className="note info">
              <span className="note-k">note</span> {n}
            </li>
          ))}
        </ul>
      )}
      <div className="pv-files">
        {t.files.map((f) => (
          <FileCard key={f.path} file={f} />
        ))}
      </div>
    </div>
  );
}
