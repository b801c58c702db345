import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReviewNodeView } from '../../../../shared/ipc/channels/install';
import type { StagedFile } from '../../../../shared/ipc/channels/review';
import { useApi } from '../../api/context';

/**
 * Characters a reader cannot see (controls, zero-width, bidi overrides, tags, BOM): shown
 * as a visible ⟦U+XXXX⟧ marker so hidden text cannot pass for blank space in the viewer.
 */
const INVISIBLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]|\udb40[\udc00-\udc7f]/g;

export function showInvisible(line: string): { text: string; hidden: number } {
  let hidden = 0;
  const text = line.replace(INVISIBLE, (c) => {
    hidden++;
    return `⟦U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`;
  });
  return { text, hidden };
}

/** Every file of one staged skill, each openable: text with its findings marked, binaries named with their size. */
export function SkillFiles({ reviewId, node }: { reviewId: string; node: ReviewNodeView }) {
  const api = useApi();
  const [open, setOpen] = useState<string | null>(null);
  const files = useQuery({
    queryKey: ['review.files', reviewId, node.name],
    queryFn: () => api.review.files({ id: reviewId, skill: node.name }),
  });
  if (files.isPending) return <p className="muted small">Loading the files…</p>;
  if (files.isError) return <p className="inst-warn-text small">The files cannot be listed: {String(files.error)}</p>;
  return (
    <div className="inst-files" data-testid="review-files">
      <ul className="inst-plain mono small">
        {files.data.files.map((f) => (
          <li key={f.path}>
            <button
              type="button"
              className={`linklike ${open === f.path ? 'active' : ''}`}
              data-file={f.path}
              onClick={() => setOpen(open === f.path ? null : f.path)}
            >
              {f.path}
            </button>{' '}
            <span className="muted">
              {f.kind === 'binary'
                ? `binary, ${f.bytes.toLocaleString('en-US')} B`
                : f.kind === 'symlink'
                  ? 'symlink'
                  : `${f.bytes.toLocaleString('en-US')} B`}
            </span>
            {f.findings > 0 && <span className="inst-label advisory"> {f.findings} finding(s)</span>}
          </li>
        ))}
      </ul>
      {open !== null && <FileView reviewId={reviewId} skill={node.name} path={open} />}
    </div>
  );
}

function FileView({ reviewId, skill, path }: { reviewId: string; skill: string; path: string }) {
  const api = useApi();
  const file = useQuery({
    queryKey: ['review.file', reviewId, skill, path],
    queryFn: () => api.review.file({ id: reviewId, skill, path }),
  });
  if (file.isPending) return <p className="muted small">Opening {path}…</p>;
  if (file.isError)
    return (
      <p className="inst-warn-text small">
        {path} cannot be opened: {String(file.error)}
      </p>
    );
  return <FileBody f={file.data} />;
}

function FileBody({ f }: { f: StagedFile }) {
  if (f.kind === 'binary') {
    return (
      <p className="small" data-testid="file-binary">
        <strong className="mono">{f.path}</strong> is a binary file of {f.bytes.toLocaleString('en-US')} bytes — not
        shown as text.
      </p>
    );
  }
  if (f.kind === 'symlink') {
    return (
      <p className="small mono" data-testid="file-symlink">
        {f.path} → {f.target}
      </p>
    );
  }
  const marked = new Map<number, StagedFile['findings']>();
  for (const x of f.findings)
    for (let l = x.location.line; l <= x.location.endLine; l++) marked.set(l, [...(marked.get(l) ?? []), x]);
  const lines = (f.text ?? '').split('\n');
  return (
    <div className="inst-file" data-testid="file-text" data-path={f.path}>
      <div className="mono small muted">
        {f.path} · {f.bytes.toLocaleString('en-US')} B{f.truncated ? ' · cut at 512 KiB' : ''}
      </div>
      <pre className="inst-file-body">
        {lines.map((raw, i) => {
          const n = i + 1;
          const { text, hidden } = showInvisible(raw);
          const here = marked.get(n);
          return (
            <div
              key={n}
              className={`inst-file-line ${here ? (here.some((x) => x.status === 'fail') ? 'fail' : 'warn') : ''}`}
              data-line={n}
              data-hidden={hidden || undefined}
            >
              <span className="inst-file-no">{n}</span>
              {text}
              {here && <span className="inst-file-note"> ← {[...new Set(here.map((x) => x.check))].join(', ')}</span>}
            </div>
          );
        })}
      </pre>
    </div>
  );
}

/**
 * Accept one blocking finding of this exact version as a reviewed exception in kitbash.toml,
 * after opening the file. Main re-checks everything; this only names the finding.
 */
export function AcceptFinding({
  reviewId,
  node,
  check,
  file,
  line,
  onAccepted,
}: {
  reviewId: string;
  node: string;
  check: string;
  file: string;
  line: number;
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
        Accept this finding…
      </button>
    );
  }
  return (
    <div className="inst-accept" data-testid="accept-form">
      <FileView reviewId={reviewId} skill={node} path={file} />
      <p className="small">
        Accepts only <span className="mono">{check}</span> at{' '}
        <span className="mono">
          {file}:{line}
        </span>{' '}
        of this exact version of {node}. It is written to kitbash.toml with your name and reason, shown in every review,
        and stops matching as soon as any byte of the skill changes.
      </p>
      <label className="small">
        <input type="checkbox" checked={read} onChange={(e) => setRead(e.target.checked)} data-testid="accept-read" /> I
        read {file} around line {line}
      </label>
      <input
        aria-label="Accepted by"
        placeholder="your name or address"
        value={by}
        onChange={(e) => setBy(e.target.value)}
        data-testid="accept-by"
      />
      <input
        aria-label="Why it is acceptable"
        placeholder="why this is acceptable"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        data-testid="accept-reason"
      />
      <button
        type="button"
        className="btn"
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
