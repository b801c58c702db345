import { formatDateTime } from '../format';

/** Says what a kept report is, above it. `what`: the figures' name in a sentence ("figures", "grades"). */
export function KeptNote({ at, what }: { at: string; what: string }) {
  return (
    <div className="banner info" role="status" data-testid="kept-note">
      <strong>Not current yet.</strong> These {what} are from {formatDateTime(at)}, kept from the last time the project
      was open; files may have changed since. Fresh ones replace them in a moment.
    </div>
  );
}
