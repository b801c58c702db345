import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { FileView } from './FileView';

/**
 * Accept one blocking finding of this exact version as a reviewed exception in kitbash.toml,
 * after opening the file — or, with `signature`, the require_signed refusal of an unsigned or
 * untrusted skill (SPEC D216), where there is no line to read but a source to vouch for.
 * Main re-checks everything; this only names the finding.
 */
export function AcceptFinding({
  reviewId,
  node,
  check,
  file,
  line,
  signature,
  onAccepted,
}: {
  reviewId: string;
  node: string;
  check: string;
  file: string;
  line: number;
  /** The refused signature's state, in the review's words: accepting it, not a finding in a file. */
  signature?: string;
  onAccepted: () => void;
}) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [by, setBy] = useState('');
  const [reason, setReason] = useState('');
  const [read, setRead] = useState(false);
  const accept = useMutation({
    mutationFn: () => api.review.acceptFinding({ id: reviewId, skill: node, check, file, line, by, reason }),
    onSuccess: onAccepted,
  });
  if (!open) {
    return (
      <button type="button" className="btn small" data-testid="accept-open" onClick={() => setOpen(true)}>
        {signature === undefined ? 'Accept this finding…' : 'Accept without a trusted signature…'}
      </button>
    );
  }
  return (
    <div className="inst-accept" data-testid="accept-form">
      {signature === undefined ? (
        <FileView reviewId={reviewId} skill={node} path={file} />
      ) : (
        <p className="small inst-warn-text" data-testid="accept-signature">
          signature {signature}
        </p>
      )}
      {signature === undefined ? (
        <p className="small">
          Accepts only <span className="mono">{check}</span> at{' '}
          <span className="mono">
            {file}:{line}
          </span>{' '}
          of this exact version of {node}. It is written to kitbash.toml with your name and reason, shown in every
          review, and stops matching as soon as any byte of the skill changes.
        </p>
      ) : (
        <p className="small">
          Installs this exact version of {node} although no trusted publisher vouches for it, as a{' '}
          <span className="mono">{check}</span> exception at{' '}
          <span className="mono">
            {file}:{line}
          </span>
          . It is written to kitbash.toml with your name and reason, shown in every review, and stops matching as soon
          as any byte of the skill changes. A signature that fails verification can never be accepted.
        </p>
      )}
      <label className="inst-accept-check">
        <input type="checkbox" checked={read} onChange={(e) => setRead(e.target.checked)} data-testid="accept-read" />{' '}
        {signature === undefined
          ? `I read ${file} around line ${line}`
          : `I checked where this version of ${node} comes from, and read its files`}
      </label>
      <div className="inst-accept-fields">
        <label className="inst-accept-field">
          <span>Accepted by</span>
          <input
            className="filter"
            placeholder="your name or address"
            value={by}
            onChange={(e) => setBy(e.target.value)}
            data-testid="accept-by"
          />
        </label>
        <label className="inst-accept-field grow">
          <span>Why it is acceptable</span>
          <input
            className="filter"
            placeholder="what you checked, and why it is safe here"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            data-testid="accept-reason"
          />
        </label>
      </div>
      <button
        type="button"
        className="btn primary inst-accept-submit"
        data-testid="accept-submit"
        disabled={!read || by.trim() === '' || reason.trim() === '' || accept.isPending}
        onClick={() => accept.mutate()}
      >
        Write the exception
      </button>
      {accept.isError && <p className="inst-warn-text small">{String(accept.error)}</p>}
    </div>
  );
}
