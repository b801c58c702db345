import { useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SkillRow } from '../../../../shared/ipc';
import type { ReviewView } from '../../../../shared/ipc/channels/install';
import type { RepinResult } from '../../../../shared/ipc/channels/lock';
import { useApi } from '../../api/context';
import { ReviewPanel } from './ReviewPanel';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/States';
import './repin.css';
import './review-summary.css';
import './review-standing.css';
import './review-details.css';
import { queryKeys } from '../../query-keys';
import { BlockerList, DoneNotes } from './lists';

/**
 * Re-pin from the lock card: pick a drifted or unpinned skill, read its review (the install
 * review of its folder as it is now — findings, permissions, files), and approve exactly
 * that review. A blocked review offers no approval; main refuses it anyway.
 */
export function RepinDialog({
  root,
  skills,
  unsaved = false,
  onClose,
}: {
  root: string;
  skills: readonly SkillRow[];
  /** Opened from the editor with edits not yet saved: they are not what gets pinned. */
  unsaved?: boolean;
  onClose: () => void;
}) {
  const api = useApi();
  const qc = useQueryClient();
  const [dir, setDir] = useState<string | null>(skills.length === 1 ? skills[0]!.dir : null);
  const [review, setReview] = useState<ReviewView | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const live = useRef<string | null>(null);
  live.current = review?.id ?? null;

  /** The staged copy behind an unused review goes now, not when it expires. */
  const dropReview = () => {
    if (live.current) void api.install.cancel({ id: live.current }).catch(() => undefined);
    live.current = null;
    setReview(null);
    setChanged(null);
  };
  const close = () => {
    dropReview();
    onClose();
  };

  const load = useMutation({
    mutationFn: (d: string) => api.lock.review({ dir: d }),
    onSuccess: (r) => setReview(r),
  });
  const pin = useMutation({
    mutationFn: (r: ReviewView) => api.lock.repin({ id: r.id, integrity: r.integrity }),
    onSuccess: (res: RepinResult) => {
      if (res.outcome === 'changed') {
        setChanged(res.message);
        setReview(res.review);
        return;
      }
      live.current = null;
      void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(root) });
    },
  });
  // Only a new choice loads a review.
  useEffect(() => {
    if (dir) load.mutate(dir);
  }, [dir]);

  const done = pin.data?.outcome === 'pinned' ? pin.data : null;
  const root0 = review?.nodes[0];
  const blocked = (review?.blockers.length ?? 0) > 0;
  return (
    <Dialog onClose={close} className="inst-repin-dialog" labelledBy="repin-title" testId="repin-dialog">
      <div className="modal-head">
        <h2 id="repin-title">Re-pin a skill in kitbash.lock</h2>
        <button type="button" className="icon-btn" aria-label="Close" onClick={close}>
          ×
        </button>
      </div>
      <p className="muted small">
        kitbash.lock pins each skill's files by a fingerprint, so a changed file is noticed and a run refuses it.
        Re-pinning records the files <b>as they are now</b>, after the same review and checks as an install.
      </p>
      {unsaved && (
        <div className="banner warn" role="status" data-testid="repin-unsaved">
          The editor has unsaved edits of this skill. They are not part of this review — save first to pin them.
        </div>
      )}
      {skills.length > 1 && (
        <label className="inst-repin-pick">
          <span>Skill</span>
          <select
            className="field"
            value={dir ?? ''}
            onChange={(e) => {
              dropReview();
              setDir(e.target.value);
            }}
          >
            <option value="" disabled>
              Choose one of {skills.length}…
            </option>
            {skills.map((s) => (
              <option key={s.dir} value={s.dir}>
                {s.name} — {s.lock === 'drift' ? 'files changed since pinned' : 'not pinned'}
              </option>
            ))}
          </select>
        </label>
      )}
      {done ? (
        <div className="inst-repin-done" role="status" data-testid="repin-done">
          <p className="ok-line">
            ✓ Pinned {done.name}@{done.version} in kitbash.lock.
          </p>
          <DoneNotes notes={done.notes} />
        </div>
      ) : load.isPending ? (
        <p className="muted">
          <Spinner label="Reviewing" /> Reading {dir} and running the install checks…
        </p>
      ) : load.isError ? (
        <p className="inline-error" role="alert">
          {load.error.message}
        </p>
      ) : review && root0 ? (
        <>
          {changed && (
            <div className="banner warn" role="status">
              {changed}
            </div>
          )}
          <div className={`inst-verdict ${blocked ? 'blocked' : 'ready'}`} data-verdict={blocked ? 'blocked' : 'ready'}>
            <div className="inst-verdict-icon" aria-hidden="true">
              {blocked ? '✕' : '?'}
            </div>
            <div>
              <h2>
                {blocked
                  ? `Blocked — ${root0.name}@${root0.version} cannot be pinned`
                  : `Review ${root0.name}@${root0.version} before you pin it`}
              </h2>
              {blocked ? (
                <>
                  <BlockerList blockers={review.blockers} />
                  <p className="inst-explain">
                    Nothing is pinned while a safety finding or the project's policy blocks it. Fix what is flagged in
                    the skill's files (then review again), or change the policy in{' '}
                    <a href="#/settings" onClick={close}>
                      Settings
                    </a>
                    ; a safety finding of this exact version can also be accepted below as a reviewed exception.
                  </p>
                </>
              ) : (
                <p className="inst-explain">
                  No safety or policy finding blocks it. Approving writes kitbash.lock (and recompiles); the skill's
                  files stay as they are.
                </p>
              )}
            </div>
          </div>
          <ReviewPanel review={review} onReReview={() => dir && load.mutate(dir)} />
        </>
      ) : null}
      {pin.isError && (
        <p className="inline-error" role="alert">
          {pin.error.message}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="btn ghost" onClick={close}>
          {done ? 'Close' : 'Cancel'}
        </button>
        {!done && review && (
          <button
            type="button"
            className="btn primary"
            disabled={blocked || pin.isPending}
            onClick={() => pin.mutate(review)}
            title={blocked ? 'a blocked review cannot be approved' : `approves exactly ${review.integrity}`}
            data-action="approve-repin"
          >
            {pin.isPending ? 'Pinning…' : `Pin ${root0?.name ?? ''}`}
          </button>
        )}
      </div>
    </Dialog>
  );
}
