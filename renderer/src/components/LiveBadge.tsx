import type { WatchStatus } from '../../../shared/ipc';
import type { Connection } from '../api';
import { useWatchStatus } from '../queries';

interface Shown {
  tone: 'on' | 'off' | 'warn';
  label: string;
  title: string;
}

/**
 * What the header may claim about changes on disk: "Live" only when every folder is watched,
 * "Offline" only once the event stream has failed (never while it is still connecting).
 */
export function liveBadge(connection: Connection, status: WatchStatus | undefined, failed: boolean): Shown {
  if (connection === 'connecting')
    return {
      tone: 'off',
      label: 'Connecting',
      title: 'connecting to Skillsmith — changes on disk show live once connected',
    };
  if (connection === 'closed')
    return { tone: 'off', label: 'Offline', title: 'not connected — changes on disk are not shown live' };
  if (failed)
    return { tone: 'warn', label: 'Not live', title: 'the watch of the project could not be checked — use Rescan' };
  if (!status) return { tone: 'off', label: 'Starting', title: "starting to watch the project's folders" };
  if (status.state === 'live')
    return { tone: 'on', label: 'Live', title: `watching all ${status.watched} folders of the project for changes` };
  const total = status.watched + status.unwatched;
  return {
    tone: 'warn',
    label: status.state === 'off' ? 'Not live' : 'Partly live',
    title: `${status.unwatched} of ${total} folders are not watched: changes there show only after Rescan. ${status.reason ?? ''}`,
  };
}

export function LiveBadge({ root, connection }: { root: string; connection: Connection }) {
  const watch = useWatchStatus(root);
  const shown = liveBadge(connection, watch.data, watch.isError);
  return (
    <span className={`app-live ${shown.tone}`} title={shown.title} data-testid="live-badge">
      <span className="app-live-dot" aria-hidden="true" />
      {shown.label}
    </span>
  );
}

/** The dashboard's word on a watch that misses folders: what is not live, why, and what to do. */
export function WatchNotice({ root }: { root: string }) {
  const watch = useWatchStatus(root);
  const s = watch.data;
  if (!s || s.state === 'live') return null;
  return (
    <div className="banner warn" role="status" data-testid="watch-notice">
      <strong>{s.state === 'off' ? 'Changes on disk are not shown live.' : 'Not every folder is watched.'}</strong>{' '}
      {s.unwatched} of {s.watched + s.unwatched} folders of this project are not watched, so changes made there (by an
      editor, git, or an agent) appear only after <em>Rescan</em>. Reopen the project once the cause below is fixed.
      {s.reason ? <span className="banner-detail">{s.reason}</span> : null}
    </div>
  );
}
