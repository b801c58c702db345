import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ReviewNodeView } from '../../../../shared/ipc/channels/install';
import { useApi } from '../../api/context';
import { FileView } from './FileView';
import { queryKeys } from '../../query-keys';
import { formatCount, plural } from '../../../../shared/text/format';

/** Every file of one staged skill, each openable: text with its findings marked, binaries named with their size. */
export function SkillFiles({ reviewId, node }: { reviewId: string; node: ReviewNodeView }) {
  const api = useApi();
  const [open, setOpen] = useState<string | null>(null);
  const files = useQuery({
    queryKey: queryKeys.install.reviewFiles(reviewId, node.name),
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
              className={`inst-linklike ${open === f.path ? 'active' : ''}`}
              data-file={f.path}
              onClick={() => setOpen(open === f.path ? null : f.path)}
            >
              {f.path}
            </button>{' '}
            <span className="muted">
              {f.kind === 'binary'
                ? `binary, ${formatCount(f.bytes)} B`
                : f.kind === 'symlink'
                  ? 'symlink'
                  : `${formatCount(f.bytes)} B`}
            </span>
            {f.findings > 0 && <span className="inst-label advisory"> {plural(f.findings, 'finding')}</span>}
          </li>
        ))}
      </ul>
      {open !== null && <FileView reviewId={reviewId} skill={node.name} path={open} />}
    </div>
  );
}
