import { IpcError } from '../../../../shared/ipc/errors';

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
