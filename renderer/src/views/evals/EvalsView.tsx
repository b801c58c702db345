import type { ProjectRef } from '../../../../shared/ipc';
import { EmptyState, ErrorState, Spinner } from '../../components/States';
import { navigate } from '../../route';
import { useRefreshOnChange } from '../../use-refresh-on-change';
import { Term } from '../../glossary';
import { SkillEvals } from './SkillEvals';
import { useEvalsOverview } from './use-evals-overview';
import './evals.css';
import { queryKeys } from '../../query-keys';

/** The Evals tab: `#/evals`, `#/evals/<skill>`. */
export function EvalsView({ project, arg }: { project: ProjectRef; arg?: string }) {
  useRefreshOnChange(project.root, queryKeys.evals.overview(project.root));
  const overview = useEvalsOverview(project.root);
  const skills = overview.data?.skills ?? [];
  const selected = skills.find((s) => s.name === arg) ?? (arg === undefined ? skills[0] : undefined) ?? null;

  return (
    <main className="page" aria-label="Evals">
      <div className="page-head">
        <div>
          <h1>Evals</h1>
          <p className="muted small">
            A skill's behavioral and trigger evals run against coding agents, each trial in a fresh sandboxed workspace
            — with the skill and, for a <Term term="baseline">baseline</Term>, without. Results and transcripts land in{' '}
            <code>.kitbash/evals/</code>.
          </p>
        </div>
      </div>
      {overview.data?.problems.map((p) => (
        <div key={p} className="banner error" role="alert">
          {p}
        </div>
      ))}
      {overview.isError ? (
        <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
      ) : overview.isPending ? (
        <div className="panel loading-line">
          <Spinner label="Reading evals" /> Reading the skills' evals…
        </div>
      ) : skills.length === 0 ? (
        <EmptyState
          title="No evals to run"
          icon="◎"
          actions={
            <a className="btn primary" href="#/editor" data-action="open-editor">
              Open the editor
            </a>
          }
        >
          No installed skill has an audit, behavioral or trigger eval. Add <code>evals/&lt;name&gt;.eval.yaml</code> to
          a skill (the editor has a template).
        </EmptyState>
      ) : (
        <div className="side-layout">
          <nav className="panel side-nav" aria-label="Skills with evals">
            <h2 className="label">Skills</h2>
            <ul>
              {skills.map((s) => (
                <li key={s.name}>
                  <button
                    type="button"
                    className={`side-item ${s.name === selected?.name ? 'active' : ''}`}
                    data-skill={s.name}
                    onClick={() => navigate({ view: 'evals', arg: s.name })}
                  >
                    <span className="skill-name">{s.name}</span>
                    <span className="muted small">
                      {s.version} · {s.evals.length} eval{s.evals.length === 1 ? '' : 's'}
                      {s.refused ? ' · refused' : ''}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <div className="side-main">
            {selected ? (
              <SkillEvals key={selected.name} project={project} overview={overview.data} skill={selected} />
            ) : (
              <EmptyState title="No such skill">
                No installed skill with evals is named <code>{arg}</code>.
              </EmptyState>
            )}
          </div>
        </div>
      )}
    </main>
  );
}
