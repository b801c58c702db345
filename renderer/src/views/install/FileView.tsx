import { useQuery } from '@tanstack/react-query';
import type { StagedFile } from '../../../../shared/ipc/channels/review';
import { useApi } from '../../api/context';
import { showInvisible } from './review-facts';
import { queryKeys } from '../../query-keys';
import { formatCount } from '../../../../shared/text/format';

/** One staged file as the reviewer reads it: text with its findings marked, or what kind of file it is. */
export function FileView({ reviewId, skill, path }: { reviewId: string; skill: string; path: string }) {
  const api = useApi();
  const file = useQuery({
    queryKey: queryKeys.install.reviewFile(reviewId, skill, path),
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
        <strong className="mono">{f.path}</strong> is a binary file of {formatCount(f.bytes)} bytes — not shown as text.
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
        {f.path} · {formatCount(f.bytes)} B{f.truncated ? ' · cut at 512 KiB' : ''}
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
