import type { CellStatus } from '../../../../shared/targets';
import { SkillSearch } from '../../components/SkillSearch';
import { Spinner } from '../../components/States';
import { STATUS_WORD, type StatusFilter, type TargetFilter } from './cells';

/** Search by name, filter by status and by target. */
export function MatrixTools({
  query,
  onQuery,
  status,
  onStatus,
  target,
  onTarget,
  counts,
  targets,
  active,
  updating,
}: {
  query: string;
  onQuery: (q: string) => void;
  status: StatusFilter;
  onStatus: (s: StatusFilter) => void;
  target: TargetFilter;
  onTarget: (t: TargetFilter) => void;
  counts: Record<CellStatus, number>;
  targets: readonly string[];
  active: readonly string[];
  updating: boolean;
}) {
  return (
    <div className="table-tools">
      {updating && (
        <span className="muted small" data-testid="matrix-updating">
          <Spinner label="Updating" /> updating…
        </span>
      )}
      <SkillSearch query={query} onQuery={onQuery} />
      <div className="segmented" role="group" aria-label="Filter by status">
        {(['all', 'full', 'degraded', 'unsupported'] as const).map((s) => (
          <button
            key={s}
            type="button"
            className={status === s ? 'on' : ''}
            aria-pressed={status === s}
            onClick={() => onStatus(s)}
            data-status-filter={s}
          >
            {s === 'all' ? 'All' : STATUS_WORD[s]}
            {s !== 'all' && <span className="segmented-count">{counts[s]}</span>}
          </button>
        ))}
      </div>
      <label className="matrix-target-select">
        <span className="muted small">Targets</span>
        <select
          className="field"
          value={target}
          onChange={(e) => onTarget(e.target.value)}
          aria-label="Filter by target"
        >
          <option value="active">This project's ({active.length})</option>
          <option value="all">All targets ({targets.length})</option>
          {targets.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
