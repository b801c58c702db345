import { useEffect, useMemo, useState } from 'react';
import { diffLines, diffStats, type DiffLine } from './diff';

const CONTEXT = 3;

/** Hunks: changed lines with a few lines of context, long unchanged runs folded. */
export function hunks(lines: readonly DiffLine[]): (DiffLine | { kind: 'fold'; count: number })[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.kind !== 'same')
      for (let j = Math.max(0, i - CONTEXT); j <= Math.min(lines.length - 1, i + CONTEXT); j++) keep[j] = 1;
  });
  const out: (DiffLine | { kind: 'fold'; count: number })[] = [];
  let folded = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (folded) out.push({ kind: 'fold', count: folded });
      folded = 0;
      out.push(l);
    } else folded++;
  });
  if (folded) out.push({ kind: 'fold', count: folded });
  return out;
}

export function DiffView({ before, after, absent }: { before: string; after: string; absent: boolean }) {
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const stats = diffStats(lines);
  const [shown, setShown] = useState(400);
  useEffect(() => setShown(400), [before, after]);
  if (stats.added === 0 && stats.removed === 0)
    return (
      <p className="muted small pv-file-same" data-testid="diff-none">
        Identical to the file on disk — compile leaves it alone.
      </p>
    );
  const parts = hunks(lines);
  return (
    <div className="pv-file-diff" data-testid="preview-diff" data-added={stats.added} data-removed={stats.removed}>
      <div className="pv-diff-stats small">
        {absent ? 'not on disk yet — compile creates it' : 'on disk → compile'}:{' '}
        <span className="pv-stat-add">+{stats.added}</span> <span className="pv-stat-del">−{stats.removed}</span>
      </div>
      <div className="pv-diff-lines mono">
        {parts.slice(0, shown).map((l, i) =>
          l.kind === 'fold' ? (
            <div key={i} className="pv-dl fold">
              ⋯ {l.count} unchanged line{l.count === 1 ? '' : 's'}
            </div>
          ) : (
            <div key={i} className={`pv-dl ${l.kind}`}>
              <span className="pv-dl-ln">{l.oldNo ?? ''}</span>
              <span className="pv-dl-ln">{l.newNo ?? ''}</span>
              <span className="pv-dl-sign">{l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : ' '}</span>
              <span className="pv-dl-tx">{l.text}</span>
            </div>
          ),
        )}
      </div>
      {parts.length > shown && (
        <button type="button" className="btn ghost pv-small-btn" onClick={() => setShown((n) => n + 2000)}>
          Show {Math.min(2000, parts.length - shown)} more lines
        </button>
      )}
    </div>
  );
}
