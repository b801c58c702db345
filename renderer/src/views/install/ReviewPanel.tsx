import type { ReviewView } from '../../../../shared/ipc/channels/install';
import { Term } from '../../glossary';
import { ChangesPanel } from './ChangesPanel';
import { ClosureTree } from './ClosureTree';
import { AcceptedFindings, Findings, PolicyFindings } from './Findings';
import { NodeCard } from './NodeCard';
import { ScannerPanel } from './ScannerPanel';
import { reviewFindings } from './review-facts';
import { StandingTable } from './StandingTable';
import { WritesPanel } from './WritesPanel';
import './review-summary.css';
import './review-standing.css';
import './review-details.css';

/** The whole review object, field for field. */
export function ReviewPanel({ review, onReReview }: { review: ReviewView; onReReview?: () => void }) {
  const { safety, lint, policy } = reviewFindings(review);
  return (
    <div className="inst-review" data-review={review.root}>
      {(safety.length > 0 || policy.length > 0) && (
        <section className="panel inst-blocking" aria-label="Blocking findings">
          <Findings
            title="Safety findings (blocking)"
            items={safety}
            kind="safety"
            {...(onReReview ? { accept: { reviewId: review.id, onAccepted: onReReview } } : {})}
          />
          <PolicyFindings
            items={policy}
            {...(onReReview
              ? {
                  accept: {
                    reviewId: review.id,
                    onAccepted: onReReview,
                    signatureOf: (name: string) => review.nodes.find((n) => n.name === name)?.signature,
                  },
                }
              : {})}
          />
        </section>
      )}
      <ScannerPanel
        review={review}
        {...(onReReview ? { accept: { reviewId: review.id, onAccepted: onReReview } } : {})}
      />
      <AcceptedFindings review={review} />
      {review.changes && review.changes.length > 0 && <ChangesPanel review={review} />}
      <div className="inst-cols">
        <div className="inst-col-main">
          {review.nodes.map((n) => (
            <NodeCard key={n.name} node={n} agents={review.agents} reviewId={review.id} />
          ))}
        </div>
        <div className="inst-col-side">
          <section className="panel" aria-label="Dependency closure">
            <h2>
              <Term term="closure">Dependency closure</Term>
            </h2>
            <ClosureTree review={review} />
          </section>
          <section className="panel" aria-label="Standing cost">
            <h2>
              <Term term="standing">Standing cost</Term> per target
            </h2>
            <StandingTable review={review} />
          </section>
          {lint.length > 0 && (
            <section className="panel" aria-label="Lint findings">
              <Findings title="Lint findings" items={lint} kind="lint" />
            </section>
          )}
          {review.notices.length > 0 && (
            <section className="panel" aria-label="Notices">
              <h2>Read this</h2>
              <ul className="inst-plain">
                {review.notices.map((n) => (
                  <li key={n}>⚠ {n}</li>
                ))}
              </ul>
            </section>
          )}
          <WritesPanel review={review} />
        </div>
      </div>
    </div>
  );
}
