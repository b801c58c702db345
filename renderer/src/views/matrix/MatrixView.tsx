import { useMemo, useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { MatrixReport } from '../../../../shared/ipc/channels/reports';
import { AddSkillActions, EmptyState, ErrorState, Spinner } from '../../components/States';
import { cellKey, parseArg, visibleGrid, type StatusFilter, type TargetFilter } from './cells';
import { EnforcementTable } from './EnforcementTable';
import { Explain } from './Explain';
import { MatrixGrid } from './MatrixGrid';
import { MatrixTools } from './MatrixTools';
import { useTargetScope } from '../target-scope';
import { useShownMatrix } from '../kept-report';
import { KeptNote } from '../../components/KeptNote';
import './matrix.css';

/** Skills × targets: does each agent get the skill as authored, a weaker version, or nothing? */
export function MatrixView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const { query: report, report: data, keptAt } = useShownMatrix(project.root);
  if (report.isError)
    return (
      <main className="page">
        <ErrorState error={report.error} onRetry={() => void report.refetch()} />
      </main>
    );
  if (!data)
    return (
      <main className="page" aria-busy="true">
        <p className="muted" data-testid="matrix-loading">
          <Spinner label="Grading" /> Grading every skill on every agent…
        </p>
      </main>
    );
  // While a changed project is graded again, the last grid stays, marked as updating.
  return <Matrix root={project.root} report={data} keptAt={keptAt} open={parseArg(arg)} updating={report.isFetching} />;
}

function Matrix({
  root,
  report,
  keptAt,
  open,
  updating,
}: {
  root: string;
  report: MatrixReport;
  /** When the grid shown was kept from an earlier run; null when it is fresh. */
  keptAt: string | null;
  open: { skill: string; target: string } | null;
  updating: boolean;
}) {
  const { failures, dirs, active } = report;
  const matrix = report;
  const [status, setStatus] = useState<StatusFilter>('all');
  // The project's own targets unless all were chosen (remembered per project); one target picked is not remembered.
  const [scope, setScope] = useTargetScope(root, active.targets);
  const [single, setSingle] = useState<string | null>(null);
  const target: TargetFilter = single ?? (scope === 'all' ? 'all' : 'active');
  const setTarget = (t: TargetFilter): void => {
    if (t === 'all' || t === 'active') {
      setScope(t === 'all' ? 'all' : 'own');
      setSingle(null);
    } else setSingle(t);
  };
  const [query, setQuery] = useState('');
  const byKey = useMemo(() => new Map(matrix.cells.map((c) => [cellKey(c.skill, c.target), c])), [matrix]);
  const grid = useMemo(
    () => visibleGrid(matrix, byKey, { query, status, target, active: active.targets }),
    [matrix, byKey, query, status, target, active.targets],
  );

  if (matrix.skills.length === 0 && failures.length === 0) {
    return (
      <main className="page">
        <EmptyState title="No skills yet" actions={<AddSkillActions />}>
          Install or create a skill to see how each agent receives it.
        </EmptyState>
      </main>
    );
  }

  return (
    <main className="page matrix-view" aria-busy={updating} data-report={keptAt ? 'cached' : 'fresh'}>
      {keptAt && <KeptNote at={keptAt} what="grades" />}
      <section className="panel" aria-labelledby="matrix-title">
        <div className="panel-head">
          <div>
            <h1 id="matrix-title">Compatibility matrix</h1>
            <p className="muted small matrix-sub">
              How each agent receives each skill. <b>Full</b>: as authored · <b>Degraded</b>: a weaker version (missing
              capability, eager loading…) · <b>Unsupported</b>: the agent drops or never triggers it.
            </p>
          </div>
          <MatrixTools
            query={query}
            onQuery={setQuery}
            status={status}
            onStatus={setStatus}
            target={target}
            onTarget={setTarget}
            counts={grid.counts}
            targets={matrix.targets}
            active={active.targets}
            updating={updating}
          />
        </div>
        {failures.length > 0 && (
          <div className="banner warn" role="status">
            {failures.map((f) => (
              <div key={f.name}>
                <b>{f.name}</b> does not load, so no agent gets it: {f.message}
              </div>
            ))}
          </div>
        )}
        {grid.skills.length === 0 ? (
          <div className="muted empty-panel" data-testid="matrix-empty">
            {query.trim()
              ? `No skill name contains “${query.trim()}”.`
              : `No skill has a ${status} cell on the selected targets.`}{' '}
            <button
              type="button"
              className="link"
              onClick={() => {
                setQuery('');
                setStatus('all');
                setSingle(null);
              }}
            >
              Show every skill
            </button>
          </div>
        ) : (
          <MatrixGrid
            skills={grid.skills}
            targets={grid.targets}
            byKey={byKey}
            status={status}
            active={active.targets}
            open={open}
          />
        )}
        <p className="muted small matrix-keys">
          {grid.skills.length < matrix.skills.length
            ? `${grid.skills.length} of ${matrix.skills.length} skills · `
            : `${matrix.skills.length} skills · `}
          Arrow keys move between cells · Enter opens the explanation · Home/End jump to the row's ends.
        </p>
      </section>
      {open && <Explain root={root} skill={open.skill} target={open.target} dir={dirs[open.skill]} />}
      <EnforcementTable report={report} />
    </main>
  );
}
