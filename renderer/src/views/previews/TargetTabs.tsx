import type { TargetPreview } from '../../../../shared/ipc/channels/compile';
import { formatTokens } from '../../format';

const STATUS_MARK = { full: '●', degraded: '◐', unsupported: '○' } as const;

export function TargetTabs({
  targets,
  current,
  onSelect,
}: {
  targets: readonly TargetPreview[];
  current: string;
  onSelect: (id: string) => void;
}) {
  const move = (i: number): void => {
    const next = targets[(i + targets.length) % targets.length]!;
    onSelect(next.target);
    document.getElementById(`ptab-${next.target}`)?.focus();
  };
  return (
    <div className="pv-tabs" role="tablist" aria-label="Targets">
      {targets.map((t, i) => (
        <button
          key={t.target}
          id={`ptab-${t.target}`}
          type="button"
          role="tab"
          aria-selected={t.target === current}
          aria-controls={`ppanel-${t.target}`}
          tabIndex={t.target === current ? 0 : -1}
          className={`pv-tab ${t.status} ${t.target === current ? 'on' : ''} ${t.inactive ? 'inactive' : ''}`}
          data-target={t.target}
          data-status={t.status}
          onClick={() => onSelect(t.target)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') move(i + 1);
            else if (e.key === 'ArrowLeft') move(i - 1);
            else if (e.key === 'Home') move(0);
            else if (e.key === 'End') move(targets.length - 1);
            else return;
            e.preventDefault();
          }}
          title={`${t.agent} — ${t.status}${t.reasons.length ? `: ${t.reasons.map((r) => r.message).join('; ')}` : ''}`}
        >
          <span className="pv-tab-top">
            <span className={`pv-status-mark ${t.status}`} aria-hidden="true">
              {STATUS_MARK[t.status]}
            </span>
            <span className="pv-tab-id">{t.target}</span>
            {t.files.some((f) => f.changed) && (
              <span className="pv-tab-dot" title="differs from disk" aria-label="differs from disk" />
            )}
          </span>
          <span className="pv-tab-cost" data-standing={t.standingTokens}>
            {formatTokens(t.standingTokens)} tok/session
          </span>
        </button>
      ))}
    </div>
  );
}
