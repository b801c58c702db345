import { plural } from '../../../shared/text/format';
import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';
import type { Dashboard as DashboardData, ProjectRef } from '../../../shared/ipc';
import { formatDateTime, formatTokens, relativeTime } from '../format';
import { useCachedDashboard, useCloseProject, useDashboard, useLiveRefresh } from '../queries';
import { AdoptNotice } from './AdoptNotice';
import { SetUp } from './SetUp';
import { WatchNotice } from './LiveBadge';
import { Problems } from './Problems';
import { SkillDrawer } from './SkillDrawer';
import { SkillsTable } from './SkillsTable';
import { StandingChart } from './StandingChart';
import { DashboardSkeleton } from './DashboardSkeleton';
import { AddSkillActions, EmptyState, ErrorState, Spinner } from './States';
import { repinnable, StatusCards, Targets } from './StatusCards';
import { CompileDialog } from '../views/previews/CompileDialog';
import { Term } from '../glossary';
import './dash-view.css';

// The install review inside it is the install screen's: fetched when the dialog first opens.
const RepinDialog = lazy(() => import('../views/install/RepinDialog').then((m) => ({ default: m.RepinDialog })));

/**
 * The project overview: targets, costs, the skills table, drift and problems. Until the
 * fresh scan arrives it shows the last run's scan, marked as such.
 */
export function DashboardView({ project }: { project: ProjectRef }) {
  const dashboard = useDashboard(project.root);
  const cached = useCachedDashboard(project.root, dashboard.isPending);
  const lastChange = useLiveRefresh(project.root);
  const close = useCloseProject();
  const [selected, setSelected] = useState<string | null>(null);
  const [compiling, setCompiling] = useState(false);
  /** The skills the re-pin dialog offers, while it is open. */
  const [repinning, setRepinning] = useState<DashboardData['skills'] | null>(null);
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 15_000);
    return () => clearInterval(t);
  }, []);

  // Never the cached scan once the fresh one is here (or failed): it is only a first paint.
  const latest = dashboard.data ?? (dashboard.isPending ? (cached.data ?? undefined) : undefined);
  // The page of a new scan renders as a deferred value: React renders it in slices that
  // yield to the browser, where in one piece it was the screen's longest main-thread task
  // (about a quarter of a second at 200 skills, the JIT still cold). What is shown stays
  // whole until then: the skeleton on a first paint, the previous scan after it.
  const data = useDeferredValue(latest, undefined);
  const old = data !== undefined && data === cached.data ? data : undefined;
  const row = data?.skills.find((s) => s.dir === selected);

  return (
    <main className="dash-main">
      <div className="dash-toolbar">
        <h1>Dashboard</h1>
        {data && (
          <span className="muted small dash-scan-info" data-testid="scan-info">
            {old ? (
              <>
                <Spinner label="Scanning" /> showing the scan from {relativeTime(old.scannedAt)} · scanning now…
              </>
            ) : dashboard.isFetching ? (
              <>
                <Spinner label="Refreshing" /> refreshing…
              </>
            ) : (
              <>
                updated {relativeTime(data.scannedAt)} · scan {data.scanMs} ms
              </>
            )}
          </span>
        )}
        <button type="button" className="btn" onClick={() => void dashboard.refetch()} disabled={dashboard.isFetching}>
          Rescan
        </button>
      </div>
      {!data && (dashboard.isPending || latest) ? (
        <DashboardSkeleton />
      ) : dashboard.isError ? (
        <div className="page">
          <ErrorState
            error={dashboard.error}
            onRetry={() => void dashboard.refetch()}
            action={
              <button type="button" className="btn ghost" onClick={() => close.mutate()}>
                Back to projects
              </button>
            }
          />
        </div>
      ) : (
        <div
          className={`page dash-view ${old ? 'cached' : ''}`}
          data-last-change={lastChange?.toISOString() ?? ''}
          data-scan={old ? 'cached' : 'fresh'}
        >
          {old && (
            <div className="banner info" role="status" data-testid="cached-note">
              <strong>Not current yet.</strong> This is the scan from {formatDateTime(old.scannedAt)}, kept from the
              last time the project was open; files may have changed since. The fresh scan replaces it in a moment.
            </div>
          )}
          {data!.configError && (
            <div className="banner error" role="alert">
              <strong>kitbash.toml could not be read.</strong> {data!.configError} — showing the project with default
              settings.
            </div>
          )}
          <WatchNotice root={project.root} />
          {!data!.hasConfig && <SetUp root={project.root} targets={data!.targets} />}
          <AdoptNotice root={project.root} scannedAt={data!.scannedAt} />
          <SummaryTiles data={data!} />
          <StatusCards
            data={data!}
            onCompile={() => setCompiling(true)}
            onRepin={() => data && setRepinning(repinnable(data))}
          />
          {data!.skills.length === 0 ? (
            <EmptyState title="No skills installed yet" icon="✦" actions={<AddSkillActions />}>
              <p>
                Skills live in <code>.kitbash/skills/&lt;name&gt;/</code> with a <code>SKILL.md</code> (and optionally a{' '}
                <code>skill.toml</code>).
              </p>
              <p className="muted">
                Install one from a folder, a git repository or GitHub, or start a new one — this page updates by itself.
              </p>
            </EmptyState>
          ) : (
            <>
              <div className="grid-2">
                <StandingChart data={data!} />
                <Targets data={data!} />
              </div>
              <SkillsTable data={data!} selected={selected} onSelect={setSelected} />
              <Problems data={data!} onSelect={setSelected} />
            </>
          )}
        </div>
      )}
      {compiling && <CompileDialog project={project} dirty={false} onClose={() => setCompiling(false)} />}
      {repinning && (
        <Suspense fallback={null}>
          <RepinDialog root={project.root} skills={repinning} onClose={() => setRepinning(null)} />
        </Suspense>
      )}
      {selected && data && (
        <SkillDrawer
          root={project.root}
          dir={selected}
          row={row}
          onClose={() => setSelected(null)}
          onRepin={(r) => {
            setSelected(null);
            setRepinning([r]);
          }}
        />
      )}
    </main>
  );
}

function SummaryTiles({ data }: { data: DashboardData }) {
  const worst = data.standingByTarget.reduce<{ target: string; tokens: number } | null>(
    (m, t) => (t.tokens !== null && (!m || t.tokens > m.tokens) ? { target: t.target, tokens: t.tokens } : m),
    null,
  );
  const clean = data.skills.filter((s) => s.lint.status === 'pass').length;
  const blocked = data.skills.filter((s) => s.lint.blocking > 0).length;
  return (
    <div className="dash-tiles">
      <div className="dash-tile" data-tile="skills">
        <div className="dash-tile-k">Skills</div>
        <div className="dash-tile-v">{data.totals.skills}</div>
        <div className="dash-tile-sub">{clean} clean</div>
      </div>
      <div className={`dash-tile ${data.totals.failures ? 'bad' : ''}`} data-tile="failures">
        <div className="dash-tile-k">Failures</div>
        <div className="dash-tile-v">{data.totals.failures}</div>
        <div className="dash-tile-sub">
          {blocked ? `${plural(blocked, 'skill')} blocked: install, run and gate refuse them` : 'none blocking'}
        </div>
      </div>
      <div className={`dash-tile ${data.totals.warnings ? 'warn' : ''}`} data-tile="warnings">
        <div className="dash-tile-k">Warnings</div>
        <div className="dash-tile-v">{data.totals.warnings}</div>
        <div className="dash-tile-sub">
          <Term term="warning">shown, never blocking</Term>
        </div>
      </div>
      <div className="dash-tile" data-tile="standing">
        <div className="dash-tile-k">
          Highest <Term term="standing">standing cost</Term>
        </div>
        <div className="dash-tile-v">
          {worst ? formatTokens(worst.tokens) : '—'}
          <span className="dash-tile-unit">tok</span>
        </div>
        <div className="dash-tile-sub">{worst ? `per session on ${worst.target}` : 'no active target'}</div>
      </div>
    </div>
  );
}
