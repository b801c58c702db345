import { useQuery } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import { useApi } from '../../api/context';
import { AddSkillActions, EmptyState, ErrorState, Spinner } from '../../components/States';
import { navigate } from '../../route';
import { useRefreshOnChange } from '../../use-refresh-on-change';
import { Term } from '../../glossary';
import { History } from './History';
import { useRunStreams } from './run-store';
import { SkillRuns } from './SkillRuns';
import './runs.css';
import { queryKeys } from '../../query-keys';

/** The Runs tab: `#/runs`, `#/runs/<dir>`. */
export function RunsView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const api = useApi();
  useRunStreams(api);
  // Skill files, the lock or the policy changed: labels, plans (drift, refusals) and history may too.
  useRefreshOnChange(project.root, queryKeys.runs.all(project.root));
  const targets = useQuery({
    queryKey: queryKeys.runs.targets(project.root),
    queryFn: () => api.runs.targets({}),
    retry: false,
  });
  const skills = targets.data?.skills ?? [];
  const runnable = skills.filter((s) => s.scripts.length > 0 || s.mode === 'gate');
  const selected = skills.find((s) => s.dir === arg) ?? null;

  return (
    <main className="page" aria-label="Runs">
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted small">
            Run a script or <Term term="gate">gate</Term> of an installed skill inside the sandbox its manifest
            declares. Output streams live; every run and refusal lands in <code>.kitbash/runs.jsonl</code>.
          </p>
        </div>
        {targets.data && (
          <span
            className={`badge ${targets.data.backend.works ? 'pass' : 'fail'}`}
            data-testid="backend"
            title={targets.data.backend.reason ?? targets.data.backend.path ?? ''}
          >
            sandbox: {targets.data.backend.backend}
            {targets.data.backend.version ? ` ${targets.data.backend.version}` : ''}{' '}
            {targets.data.backend.works ? 'works' : 'unavailable'}
          </span>
        )}
      </div>
      {targets.data && !targets.data.backend.works && (
        <div className="banner error" role="alert">
          The OS sandbox does not work here: {targets.data.backend.reason ?? 'unknown reason'}. Runs are refused; a
          single run can still go ahead with “Run once without the sandbox…” on its refusal, which first shows exactly
          what would run.
        </div>
      )}
      {targets.isError ? (
        <ErrorState error={targets.error} onRetry={() => void targets.refetch()} />
      ) : targets.isPending ? (
        <div className="panel loading-line">
          <Spinner label="Probing the sandbox" /> Probing the sandbox and reading installed skills…
        </div>
      ) : (
        <div className="side-layout">
          <nav className="panel side-nav" aria-label="Skills with scripts">
            <h2 className="label">Skills</h2>
            {runnable.length === 0 ? (
              <p className="muted small">No installed skill has scripts or is a gate.</p>
            ) : (
              <ul>
                {runnable.map((s) => (
                  <li key={s.dir}>
                    <button
                      type="button"
                      className={`side-item ${s.dir === arg ? 'active' : ''}`}
                      data-skill={s.dir}
                      onClick={() => navigate({ view: 'runs', arg: s.dir })}
                    >
                      <span className="skill-name">{s.dir}</span>
                      <span className="muted small">
                        {s.mode === 'gate' && (
                          <>
                            <Term term="gate" plain />
                            {' · '}
                          </>
                        )}
                        {s.scripts.length} script{s.scripts.length === 1 ? '' : 's'}
                        {s.permissions?.network ? ' · network' : ''}
                        {s.permissions?.write ? ' · write' : ''}
                        {s.verdict && s.verdict.blocking.length > 0 ? ' · blocked' : ''}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </nav>
          <div className="side-main">
            {selected ? (
              <SkillRuns key={selected.dir} project={project} target={selected} />
            ) : runnable.length === 0 && !arg ? (
              <EmptyState title="Nothing to run yet" icon="▷" actions={<AddSkillActions />}>
                Runs start a skill&apos;s scripts or its gate. Install a skill that has some, or write one with a{' '}
                <code>scripts/</code> folder.
              </EmptyState>
            ) : (
              <EmptyState title="Pick a skill" icon="▷">
                {arg ? (
                  <>
                    No installed skill <code>{arg}</code>.
                  </>
                ) : (
                  'Choose a skill on the left to see its scripts and how each restriction is held here.'
                )}
              </EmptyState>
            )}
            <History project={project} skill={selected?.dir ?? null} />
          </div>
        </div>
      )}
    </main>
  );
}
