import type { CheckId } from '../../../../shared/lint/types';
import type { ReviewView } from '../../../../shared/ipc/channels/install';
import { NEVER_ACCEPTABLE, SIGNATURE_CHECK, SIGNATURE_PLACE } from '../../../../shared/policy/exceptions';
import {
  describeSignature,
  isAcceptableSignatureRefusal,
  type SignatureState,
} from '../../../../shared/policy/signature';
import { Term } from '../../glossary';
import { AcceptFinding } from './AcceptFinding';
import { span, type Finding } from './review-facts';

/** One list of findings; blocking safety findings can each be accepted as a reviewed exception where allowed. */
export function Findings({
  title,
  items,
  kind,
  accept,
}: {
  title: string;
  items: { node: string; f: Finding }[];
  kind: 'safety' | 'lint';
  accept?: { reviewId: string; onAccepted: () => void };
}) {
  if (!items.length) return null;
  return (
    <div className={`inst-findings ${kind}`} data-kind={kind}>
      <h3>{title}</h3>
      <ul>
        {items.map(({ node, f }, i) => (
          <li key={`${node}-${f.id}-${i}`} className={`inst-finding ${f.status}`} data-check={f.id}>
            <span className="inst-finding-mark" aria-hidden="true">
              {f.status === 'fail' ? '✕' : '!'}
            </span>
            <span className="check-id mono">{f.id}</span>
            <span className="inst-finding-node muted small">{node}</span>
            <span className="inst-finding-detail">{f.detail}</span>
            {span(f) && <span className="inst-span mono">{span(f)}</span>}
            {accept && kind === 'safety' && (
              <div className="inst-accept-row">
                {NEVER_ACCEPTABLE.has(f.id as CheckId) ? (
                  <span className="muted small" data-testid="accept-never">
                    Cannot be accepted: {NEVER_ACCEPTABLE.get(f.id as CheckId)}
                  </span>
                ) : (
                  f.locations
                    .slice(0, 5)
                    .map((l) => (
                      <AcceptFinding
                        key={`${l.file}:${l.line}`}
                        reviewId={accept.reviewId}
                        node={node}
                        check={f.id}
                        file={l.file}
                        line={l.line}
                        onAccepted={accept.onAccepted}
                      />
                    ))
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What the project's `[policy]` refuses, per skill: blocking, and not a reviewer's choice —
 * except `require_signed` refusing an unsigned or untrusted skill, which a reviewed exception
 * may accept (SPEC D216).
 */
export function PolicyFindings({
  items,
  accept,
}: {
  items: { node: string; p: string }[];
  accept?: { reviewId: string; onAccepted: () => void; signatureOf: (node: string) => SignatureState | undefined };
}) {
  if (!items.length) return null;
  return (
    <div className="inst-findings" data-kind="policy">
      <h3>Policy violations (blocking)</h3>
      <ul>
        {items.map(({ node, p }) => (
          <li key={`${node}-${p}`} className="inst-finding fail" data-check="policy">
            <span className="inst-finding-mark" aria-hidden="true">
              ✕
            </span>
            <span className="check-id mono">policy</span>
            <span className="inst-finding-node muted small">{node}</span>
            <span className="inst-finding-detail">{p}</span>
            {accept && isAcceptableSignatureRefusal(accept.signatureOf(node), p) && (
              <div className="inst-accept-row">
                <AcceptFinding
                  reviewId={accept.reviewId}
                  node={node}
                  check={SIGNATURE_CHECK}
                  file={SIGNATURE_PLACE.file}
                  line={SIGNATURE_PLACE.line}
                  signature={describeSignature(accept.signatureOf(node)!)}
                  onAccepted={accept.onAccepted}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Findings a `[[policy.exceptions]]` entry accepts: always shown, with who and why. */
export function AcceptedFindings({ review }: { review: ReviewView }) {
  const items = review.nodes.flatMap((n) => n.accepted.map((a) => ({ node: n.name, a })));
  if (!items.length) return null;
  return (
    <section className="panel inst-accepted" aria-label="Accepted by exception">
      <h3>
        Accepted by a <Term term="exception">reviewed exception</Term> (kitbash.toml)
      </h3>
      <p className="muted small">
        Each matches only this exact version: if any byte of the skill changes, the finding blocks again.
      </p>
      <ul>
        {items.map(({ node, a }) => (
          <li
            key={`${node}-${a.id}-${a.file}-${a.line}`}
            className="inst-finding warn"
            data-check={a.id}
            data-accepted="true"
          >
            <span className="inst-finding-mark" aria-hidden="true">
              !
            </span>
            <span className="check-id mono">{a.id}</span>
            <span className="inst-finding-node muted small">{node}</span>
            <span className="inst-finding-detail">
              {a.detail} — accepted by <strong>{a.by}</strong>: {a.reason}
            </span>
            <span className="inst-span mono">
              {a.file}:{a.line}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
