import type { ReactNode } from 'react';
import { IpcError } from '../../../shared/ipc/errors';

export function Spinner({ label }: { label: string }) {
  return (
    <span className="spinner" role="status" aria-label={label}>
      <span className="spinner-dot" />
    </span>
  );
}

export function ErrorState({ error, onRetry, action }: { error: unknown; onRetry?: () => void; action?: ReactNode }) {
  const code = error instanceof IpcError ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="state state-error" role="alert">
      <div className="state-icon" aria-hidden="true">
        !
      </div>
      <h2>
        {code === 'not-found' ? 'That folder is gone' : code === 'forbidden' ? 'Not allowed' : 'Something went wrong'}
      </h2>
      <p className="state-message">{message}</p>
      {code && <p className="state-code">error code: {code}</p>}
      <div className="state-actions">
        {onRetry && (
          <button type="button" className="btn primary" onClick={onRetry}>
            Try again
          </button>
        )}
        {action}
      </div>
    </div>
  );
}

export function EmptyState({
  title,
  children,
  icon = '∅',
  actions,
}: {
  title: string;
  children: ReactNode;
  icon?: string;
  actions?: ReactNode;
}) {
  return (
    <div className="state state-empty">
      <div className="state-icon" aria-hidden="true">
        {icon}
      </div>
      <h2>{title}</h2>
      <div className="state-message">{children}</div>
      {actions && <div className="state-actions">{actions}</div>}
    </div>
  );
}

/** What an empty project offers everywhere: install a skill, or write a new one. */
export function AddSkillActions() {
  return (
    <>
      <a className="btn primary" href="#/install" data-action="install-skill">
        Install a skill
      </a>
      <a className="btn" href="#/editor" data-action="new-skill">
        New skill
      </a>
    </>
  );
}
