import type { ProjectRef } from '../../../../shared/ipc';
import { navigate } from '../../route';
import { Term } from '../../glossary';
import { BeginError } from './BeginError';
import { InstalledList } from './InstalledList';
import { Outcome, ReReviewed } from './Outcome';
import { ErrorLine } from './ErrorLine';
import { ProgressLine } from './ProgressLine';
import { ReviewPanel } from './ReviewPanel';
import { SkillChecklist } from './SkillChecklist';
import { SourceForm } from './SourceForm';
import { useDraft } from './use-draft';
import { useInstallReview } from './use-install-review';
import { Verdict } from './Verdict';
import { DoneNotes } from './lists';

/** Enter a source → review → approve (bound to the reviewed hash) or discard. */
export function InstallFlow({ project }: { project: ProjectRef }) {
  const [draft, setDraft] = useDraft();
  const { review, changed, done, setDone, begin, approve, picks, busy, progress, discard, reReview } =
    useInstallReview(project);
  const { listing, setListing, queue, setQueue, list } = picks;

  const progressLine = (
    <ProgressLine
      progress={progress}
      fallback={approve.isPending ? 'checking the source and installing…' : 'fetching the source…'}
    />
  );
  const beginError = begin.isError ? <BeginError error={begin.error} onDismiss={() => begin.reset()} /> : null;

  return (
    <>
      {!review && (
        <div className="inst-layout">
          <div className="inst-main">
            {listing ? (
              <SkillChecklist
                source={listing.source}
                skills={listing.skills}
                onCancel={() => setListing(null)}
                onReview={(sources) => {
                  setListing(null);
                  setDone(null);
                  setQueue(sources.slice(1));
                  begin.mutate(sources[0]!);
                }}
              />
            ) : (
              <SourceForm
                draft={draft}
                set={setDraft}
                busy={busy}
                onReview={(s) => {
                  setDone(null);
                  setQueue([]);
                  list.mutate(s);
                }}
              />
            )}
            {progressLine}
            {beginError}
          </div>
          <InstalledList project={project} />
        </div>
      )}
      {review && progressLine}
      {review && beginError}
      {done && (
        <Outcome kind="done" verdict="installed" role="status">
          <h2>Installed {done.installed.join(', ')}</h2>
          <p className="inst-explain">
            <Term term="pinned">Pinned</Term> in kitbash.lock.
          </p>
          <DoneNotes notes={done.notes} />
          <div className="inst-actions">
            <button type="button" className="btn" onClick={() => navigate({ view: 'dashboard' })}>
              Open the dashboard
            </button>
            <button type="button" className="btn ghost" onClick={() => setDone(null)}>
              Install another
            </button>
          </div>
        </Outcome>
      )}
      {review && (
        <div
          className="inst-dialog"
          role="dialog"
          aria-label={`Install review of ${review.root}`}
          data-review-id={review.id}
          data-integrity={review.integrity}
        >
          <ReReviewed message={changed} />
          <Verdict review={review} verb="install" />
          <div className="inst-actions inst-sticky">
            <span className="muted small mono inst-source-echo" title="the source as reviewed">
              {review.source.raw}
              {queue.length > 0 && ` · ${queue.length} more picked after this one`}
            </span>
            <button type="button" className="btn" onClick={discard} disabled={approve.isPending}>
              {review.blockers.length ? 'Close' : 'Cancel'}
            </button>
            {review.blockers.length > 0 && (
              <span className="inst-no-approve">
                Cannot be approved as it is — blocked by{' '}
                {review.blockers.length === 1 ? '1 finding' : `${review.blockers.length} findings`}
              </span>
            )}
            {review.blockers.length === 0 && (
              <button
                type="button"
                className="btn primary inst-approve"
                disabled={approve.isPending}
                onClick={() => approve.mutate(review)}
                title={`approves exactly ${review.integrity}`}
              >
                {approve.isPending
                  ? 'Installing…'
                  : `Approve and install ${review.root}@${review.nodes[0]?.version ?? ''}`}
              </button>
            )}
          </div>
          {approve.isError && (
            <ErrorLine error={approve.error} origin="install.approve" onDismiss={() => approve.reset()} />
          )}
          <ReviewPanel review={review} onReReview={() => reReview(review)} />
        </div>
      )}
    </>
  );
}
