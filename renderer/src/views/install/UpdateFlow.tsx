import { useEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { ApplyUpdateResult, ReviewView, UpdateCheck } from '../../../../shared/ipc/channels/install';
import { useApi } from '../../api/context';
import { navigate } from '../../route';
import { Term } from '../../glossary';
import { Outcome, ReReviewed } from './Outcome';
import { ErrorLine } from './ErrorLine';
import { ProgressLine } from './ProgressLine';
import { newProgressId, useProgress } from './use-progress';
import { ReviewPanel } from './ReviewPanel';
import { useRefreshInstalled } from './use-refresh-installed';
import { Verdict } from './Verdict';

/** `#/install/update:<dir>`: refetch the pinned source; when it moved, review the new version before applying it. */
export function UpdateFlow({ project, dir }: { project: ProjectRef; dir: string }) {
  const api = useApi();
  const refreshInstalled = useRefreshInstalled(project.root);
  const [pid] = useState(() => newProgressId('update'));
  const [result, setResult] = useState<UpdateCheck | null>(null);
  const check = useMutation({
    mutationFn: () => api.install.checkUpdate({ name: dir, progressId: pid }),
    onSuccess: setResult,
  });
  const [updated, setUpdated] = useState<Extract<ApplyUpdateResult, { outcome: 'updated' }> | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const [applyPid, setApplyPid] = useState<string | null>(null);
  const apply = useMutation({
    mutationFn: (r: ReviewView) => {
      const id = newProgressId('apply');
      setApplyPid(id);
      return api.install.applyUpdate({ id: r.id, integrity: r.integrity });
    },
    onSuccess: (res) => {
      if (res.outcome === 'changed') {
        setChanged(res.message);
        setResult(res.check);
        return;
      }
      setUpdated(res);
      refreshInstalled();
    },
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    check.mutate();
  }, [check]);
  const progress = useProgress(pid, check.isPending);
  const applying = useProgress(applyPid, apply.isPending);
  const review = result?.status === 'changed' ? result.review : null;
  useEffect(
    () => () => void (review && !updated && api.install.cancel({ id: review.id }).catch(() => undefined)),
    [api, review, updated],
  );
  return (
    <div className="inst-dialog" role="dialog" aria-label={`Update ${dir}`}>
      <div className="panel-head">
        <span className="muted small">From its pinned source. Nothing is written until you approve.</span>
        <button type="button" className="btn ghost" onClick={() => navigate({ view: 'install' })}>
          Back
        </button>
      </div>
      <ProgressLine progress={progress} fallback="refetching the pinned source…" />
      <ProgressLine progress={applying} fallback="refetching to check nothing moved, then updating and compiling…" />
      <ReReviewed message={changed} />
      {check.isError && <ErrorLine error={check.error} origin="install.checkUpdate" />}
      {result?.status === 'up-to-date' && (
        <Outcome kind="done" verdict="up-to-date">
          <h2>
            {result.name}@{result.version} is up to date
          </h2>
          {result.note && <p className="inst-explain">{result.note}</p>}
        </Outcome>
      )}
      {updated && (
        <Outcome kind="done" verdict="updated" role="status">
          <h2>
            Updated {updated.updated} to {updated.version}
          </h2>
          <p className="inst-explain">
            Re-<Term term="pinned">pinned</Term> in kitbash.lock. {updated.notes.join(' ')}
          </p>
        </Outcome>
      )}
      {review && !updated && result?.status === 'changed' && (
        <>
          <p className="muted">
            {result.name}: {result.from} → {review.nodes[0]?.version}
            {result.localEdits && <span> · local edits kept: merged with upstream, your copy backed up first</span>}
          </p>
          {result.merge && <MergeFiles merge={result.merge} />}
          <Verdict review={review} verb="update" />
          <div className="inst-actions inst-sticky">
            <button type="button" className="btn" onClick={() => navigate({ view: 'install' })}>
              {review.blockers.length ? 'Close' : 'Cancel'}
            </button>
            {review.blockers.length === 0 && (
              <button
                type="button"
                className="btn primary inst-approve"
                disabled={apply.isPending}
                onClick={() => apply.mutate(review)}
                title={`approves exactly ${review.integrity}`}
              >
                {apply.isPending ? 'Updating…' : `Approve update to ${review.nodes[0]?.version ?? ''}`}
              </button>
            )}
          </div>
          {apply.isError && <ErrorLine error={apply.error} origin="install.applyUpdate" />}
          <ReviewPanel review={review} />
        </>
      )}
    </div>
  );
}

type Merge = NonNullable<Extract<UpdateCheck, { status: 'changed' }>['merge']>;

const OUTCOME: Record<Merge['files'][number]['outcome'], string> = {
  upstream: 'taken from upstream',
  deleted: 'removed, as upstream removed it',
  local: 'kept as you edited it',
  merged: 'merged cleanly',
  conflict: 'conflict — markers left for you to resolve',
  ours: 'conflict — kept yours',
  theirs: 'conflict — taken from upstream',
  unresolved: 'unresolved',
};

/** Each file the merge touched; conflicts first, since they are what the user must finish. */
function MergeFiles({ merge }: { merge: Merge }) {
  const conflicts = merge.files.filter((f) => f.outcome === 'conflict');
  const order = [...conflicts, ...merge.files.filter((f) => f.outcome !== 'conflict')];
  return (
    <section className="inst-merge" aria-label="merge of your local edits">
      <h3>Your local edits</h3>
      {!merge.based && (
        <p className="inst-explain">
          The installed version could not be fetched: every difference was settled by a side.
        </p>
      )}
      {conflicts.length > 0 && (
        <p className="inst-warn-text">
          Conflicts stay in {conflicts.map((f) => f.path).join(', ')} with both sides between markers; the skill is not
          delivered until you resolve them and update it again.
        </p>
      )}
      <ul>
        {order.map((f) => (
          <li key={f.path} className={f.outcome === 'conflict' ? 'inst-merge-conflict' : undefined}>
            <code>{f.path}</code> — {OUTCOME[f.outcome]}
          </li>
        ))}
      </ul>
    </section>
  );
}
