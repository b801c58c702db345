import type { ReviewNodeView, ReviewView } from '../../../../shared/ipc/channels/install';
import { Term } from '../../glossary';
import { AcceptFinding } from './AcceptFinding';

type ScannerFinding = NonNullable<ReviewNodeView['scanners']>[number];

const STATE: Record<NonNullable<ReviewView['scanners']>[number]['state'], string> = {
  ran: 'ran',
  'not-installed': 'not installed',
  failed: 'failed',
  unconfirmed: 'not confirmed by you',
};

/**
 * The project's external scanners (kitbash.toml `[scanners]`, SPEC D251): which ran, which did
 * not and why, and their findings with scanner and severity. Advisory unless `[policy]
 * block_scanner_findings` reaches the severity; a blocking one can be accepted like a
 * built-in finding. Accepted ones are listed with the other accepted findings.
 */
export function ScannerPanel({
  review,
  accept,
}: {
  review: ReviewView;
  accept?: { reviewId: string; onAccepted: () => void };
}) {
  if (!review.scanners?.length) return null;
  const items = review.nodes.flatMap((n) =>
    (n.scanners ?? []).filter((f) => f.status !== 'accepted').map((f) => ({ node: n.name, f })),
  );
  items.sort((a, b) => Number(b.f.status === 'blocking') - Number(a.f.status === 'blocking'));
  return (
    <section className="panel inst-scanners" aria-label="Scanners">
      <h3>External scanners (kitbash.toml)</h3>
      <ul className="inst-plain inst-scanner-runs">
        {review.scanners.map((r) => (
          <li key={r.name} data-scanner={r.name} data-state={r.state}>
            <span className="mono">{r.name}</span>{' '}
            <span className={`inst-scanner-state ${r.state}`}>{STATE[r.state]}</span>
            {r.state === 'ran' && (
              <span className="muted small"> — {r.findings === 1 ? '1 finding' : `${r.findings} findings`}</span>
            )}
            {r.problem !== undefined && <div className="muted small inst-scanner-problem">{r.problem}</div>}
          </li>
        ))}
      </ul>
      {items.length > 0 && (
        <div className="inst-findings" data-kind="scanner">
          <ul>
            {items.map(({ node, f }, i) => (
              <ScannerItem key={`${node}-${f.check}-${i}`} node={node} f={f} {...(accept ? { accept } : {})} />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function ScannerItem({
  node,
  f,
  accept,
}: {
  node: string;
  f: ScannerFinding;
  accept?: { reviewId: string; onAccepted: () => void };
}) {
  const blocking = f.status === 'blocking';
  return (
    <li className={`inst-finding ${blocking ? 'fail' : 'warn'}`} data-check={f.check} data-status={f.status}>
      <span className="inst-finding-mark" aria-hidden="true">
        {blocking ? '✕' : '!'}
      </span>
      <span className="check-id mono">{f.scanner}</span>
      <span className={`inst-scanner-sev ${f.severity}`}>{f.severity}</span>
      <span className="inst-finding-detail">
        {f.message} <span className="muted small mono">{f.rule}</span>{' '}
        <span className="muted small">
          in {node}
          {blocking ? ' — blocks the install' : ' — advisory'}
        </span>
      </span>
      {f.file !== undefined && (
        <span className="inst-span mono">
          {f.file}:{f.line ?? 1}
        </span>
      )}
      {accept && blocking && f.file !== undefined && (
        <div className="inst-accept-row">
          <AcceptFinding
            reviewId={accept.reviewId}
            node={node}
            check={f.check}
            file={f.file}
            line={f.line ?? 1}
            onAccepted={accept.onAccepted}
          />
        </div>
      )}
      {blocking && f.file === undefined && (
        <span className="muted small inst-span-note">
          Names no file, so no <Term term="exception">reviewed exception</Term> can accept it.
        </span>
      )}
    </li>
  );
}
