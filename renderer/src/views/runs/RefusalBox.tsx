import type { Refusal } from '../../../../shared/ipc/channels/runs';
import { LabelsTable } from './LabelsTable';

/** Why the runner will not run this, with the restriction labels; on a machine that cannot hold them, the way out. */
export function RefusalBox({ refusal, onOverride }: { refusal: Refusal; onOverride: (() => void) | undefined }) {
  return (
    <div className="runs-refusal" role="alert" data-testid="refusal" data-reason={refusal.reason}>
      <div>
        <strong>The runner refuses this run</strong> <span className="tag subtle">{refusal.reason}</span>
      </div>
      <p>{refusal.message}</p>
      {refusal.rows && <LabelsTable rows={refusal.rows} caption="Sandbox labels" />}
      {onOverride && (
        <div>
          <button type="button" className="btn" data-testid="override" onClick={onOverride}>
            Run once without the sandbox…
          </button>{' '}
          <span className="muted small">It shows exactly what would run before it does, and is never remembered.</span>
        </div>
      )}
    </div>
  );
}
