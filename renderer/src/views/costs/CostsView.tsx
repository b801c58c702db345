import { useMemo } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { CostsReport } from '../../../../shared/ipc/channels/reports';
import { TARGETS } from '../../../../shared/targets/registry';
import { AddSkillActions, EmptyState, ErrorState, Spinner } from '../../components/States';
import { CostChart } from './CostChart';
import { CostTable } from './CostTable';
import { ListingPanel, SkillCostCard } from './panels';
import { skillColor } from './chart';
import { useTargetScope } from '../target-scope';
import { useShownCosts } from '../kept-report';
import { KeptNote } from '../../components/KeptNote';
import './costs.css';

/** Standing context cost: what every session pays per agent, for the project and per skill. */
export function CostsView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const { query: report, report: data, keptAt } = useShownCosts(project.root);
  if (report.isError)
    return (
      <main className="page">
        <ErrorState error={report.error} onRetry={() => void report.refetch()} />
      </main>
    );
  if (!data)
    return (
      <main className="page" aria-busy="true">
        <p className="muted" data-testid="costs-loading">
          <Spinner label="Pricing" /> Pricing every skill for every agent…
        </p>
      </main>
    );
  // While a changed project is priced again, the last figures stay, marked as updating.
  return <Costs root={project.root} report={data} keptAt={keptAt} focus={arg} updating={report.isFetching} />;
}

function Costs({
  root,
  report,
  keptAt,
  focus,
  updating,
}: {
  root: string;
  report: CostsReport;
  /** When the figures shown were kept from an earlier run; null when they are fresh. */
  keptAt: string | null;
  focus: string | undefined;
  updating: boolean;
}) {
  const { skills, failures, listings, active } = report;
  // The project's own targets unless all were chosen (remembered per project, shared with the matrix).
  const [scope, setScope] = useTargetScope(root, active.targets);
  const targets = useMemo(
    () => TARGETS.filter((t) => scope === 'all' || active.targets.includes(t.id)),
    [scope, active.targets],
  );
  const selected = skills.find((s) => s.skill === focus);

  if (skills.length === 0) {
    return (
      <main className="page">
        <EmptyState title="No skills to price" actions={<AddSkillActions />}>
          Install or create a skill to see what it costs each agent per session.
        </EmptyState>
      </main>
    );
  }

  return (
    <main className="page cost-view" aria-busy={updating} data-report={keptAt ? 'cached' : 'fresh'}>
      {keptAt && <KeptNote at={keptAt} what="figures" />}
      <section className="panel" aria-labelledby="cost-title">
        <div className="panel-head">
          <div>
            <h1 id="cost-title">Standing context cost per session</h1>
            <p className="muted small cost-sub">
              Tokens each agent holds in every session before any skill is used. Lazy agents keep only each skill's
              description; eager ones load the whole text.
            </p>
          </div>
          <div className="cost-tools">
            {updating && (
              <span className="muted small" data-testid="costs-updating">
                <Spinner label="Updating" /> updating…
              </span>
            )}
            <div className="segmented" role="group" aria-label="Targets shown">
              <button
                type="button"
                className={scope === 'own' ? 'on' : ''}
                aria-pressed={scope === 'own'}
                onClick={() => setScope('own')}
                disabled={active.targets.length === 0}
              >
                This project's <span className="segmented-count">{active.targets.length}</span>
              </button>
              <button
                type="button"
                className={scope === 'all' ? 'on' : ''}
                aria-pressed={scope === 'all'}
                onClick={() => setScope('all')}
              >
                All targets <span className="segmented-count">{TARGETS.length}</span>
              </button>
            </div>
          </div>
        </div>
        <CostChart skills={skills} targets={targets} active={active.targets} selected={selected?.skill} />
        {failures.length > 0 && (
          <p className="muted small">Not priced (does not load): {failures.map((f) => f.name).join(', ')}</p>
        )}
      </section>

      <ListingPanel reports={listings.filter((r) => scope === 'all' || active.targets.includes(r.target))} />

      {selected ? (
        <SkillCostCard skill={selected} targets={targets.map((t) => t.id)} color={skillColor(selected.skill)} />
      ) : null}

      <CostTable skills={skills} targets={targets} active={active.targets} selected={selected?.skill} />
    </main>
  );
}
