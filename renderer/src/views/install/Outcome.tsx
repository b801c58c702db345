import type { ReactNode } from 'react';
import './review-summary.css';
import './review-standing.css';
import './review-details.css';

const ICON = { done: '✓', blocked: '✕', ready: '?' } as const;

/** The big verdict box of a review, an install, an update or a remove: done, blocked, or waiting for a decision. */
export function Outcome({
  kind,
  verdict,
  role,
  children,
}: {
  kind: keyof typeof ICON;
  /** `data-verdict`, what the tests and the CSS read. */
  verdict: string;
  role?: 'status' | 'alert';
  children: ReactNode;
}) {
  return (
    <div className={`inst-verdict ${kind}`} role={role} data-verdict={verdict}>
      <div className="inst-verdict-icon" aria-hidden="true">
        {ICON[kind]}
      </div>
      <div>{children}</div>
    </div>
  );
}

/** The source moved between review and approval: it was reviewed again, and this says what changed. */
export function ReReviewed({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="inst-changed" role="alert">
      <strong>Re-reviewed.</strong> {message.charAt(0).toUpperCase() + message.slice(1)}
    </div>
  );
}
