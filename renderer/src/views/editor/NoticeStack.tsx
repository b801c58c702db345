import type { Notice, Notices } from './notices';

/**
 * The editor's notices, over the page's corner instead of in its flow (nothing moves when
 * one comes or goes). Both regions exist before anything is announced, as live regions
 * must: info politely, errors assertively. Nothing here takes focus.
 */
const REGIONS = [
  { kind: 'info', role: 'status', live: 'polite' },
  { kind: 'error', role: 'alert', live: 'assertive' },
] as const;

export function NoticeStack({ notices }: { notices: Notices }) {
  return (
    <div className="ed-notices">
      {REGIONS.map((r) => (
        <div key={r.kind} role={r.role} aria-live={r.live} aria-atomic="false">
          {notices.list
            .filter((n) => n.kind === r.kind)
            .map((n) => (
              <Toast key={n.id} notice={n} notices={notices} />
            ))}
        </div>
      ))}
    </div>
  );
}

function Toast({ notice, notices }: { notice: Notice; notices: Notices }) {
  return (
    <div
      className={`ed-toast ${notice.kind}`}
      data-notice={notice.kind}
      onMouseEnter={() => notices.hold(notice.id)}
      onMouseLeave={() => notices.release(notice.id)}
      onFocus={() => notices.hold(notice.id)}
      onBlur={() => notices.release(notice.id)}
    >
      <span className="ed-toast-text">{notice.text}</span>
      <button
        type="button"
        className="btn ghost small"
        aria-label={`Dismiss: ${notice.text}`}
        onClick={() => notices.dismiss(notice.id)}
      >
        ×
      </button>
    </div>
  );
}
