import { useEffect, useRef, useState } from 'react';
import { IpcError } from '../../../../shared/ipc/errors';
import { useApi } from '../../api/context';

/** How long an operation may run before it shows progress. */
export const PROGRESS_AFTER_MS = 300;

let counter = 0;
/** A fresh id for one call's `progress` events. */
export function newProgressId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

export interface ProgressState {
  readonly label: string | null;
  readonly done: number;
  readonly total: number | null;
}

/**
 * While `active`, listen for `progress` events of `id` and report them; `visible` turns
 * true only once the operation has run for more than 300 ms (quick answers never flash).
 */
export function useProgress(
  id: string | null,
  active: boolean,
): { visible: boolean; state: ProgressState; elapsedMs: number } {
  const api = useApi();
  const [state, setState] = useState<ProgressState>({
    label: null,
    done: 0,
    total: null,
  });
  const [elapsedMs, setElapsed] = useState(0);
  const started = useRef(0);
  useEffect(() => {
    if (!active) return;
    setState({ label: null, done: 0, total: null });
    setElapsed(0);
    started.current = Date.now();
    const off =
      id === null
        ? () => undefined
        : api.on('progress', (p) => {
            if (p.id === id) setState({ label: p.label, done: p.done, total: p.total });
          });
    const timer = setInterval(() => setElapsed(Date.now() - started.current), 100);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [api, id, active]);
  return { visible: active && elapsedMs > PROGRESS_AFTER_MS, state, elapsedMs };
}

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

/** One error, one line, and where it came from (the channel, and the contract's error code). */
export function ErrorLine({ error, origin, onDismiss }: { error: unknown; origin: string; onDismiss?: () => void }) {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  const code = error instanceof IpcError ? error.code : 'error';
  return (
    <div className="inst-error" role="alert">
      <span className="inst-error-mark" aria-hidden="true">
        ✕
      </span>
      <span className="inst-error-msg">{message}</span>
      <span className="inst-error-origin mono" title="where the error came from">
        {origin} · {code}
      </span>
      {onDismiss && (
        <button type="button" className="icon-btn" aria-label="Dismiss error" onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}
