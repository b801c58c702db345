import type { useProgress } from './use-progress';

/** A long operation's progress: its label, elapsed time and a bar (shown only after 300 ms). */
export function ProgressLine({ progress, fallback }: { progress: ReturnType<typeof useProgress>; fallback: string }) {
  if (!progress.visible) return null;
  const { state } = progress;
  const pct = state.total ? Math.min(100, Math.round((state.done / state.total) * 100)) : null;
  return (
    <div className="inst-progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true">
        <span className="spinner-dot" />
      </span>
      <span className="inst-progress-label">{state.label ?? fallback}</span>
      <span className="inst-progress-time mono">{(progress.elapsedMs / 1000).toFixed(1)} s</span>
      <span className="inst-progress-track" aria-hidden="true">
        <span
          className={`inst-progress-fill ${pct === null ? 'indeterminate' : ''}`}
          style={pct === null ? undefined : { width: `${Math.max(pct, 6)}%` }}
        />
      </span>
    </div>
  );
}
