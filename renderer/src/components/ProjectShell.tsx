import type { ProjectRef } from '../../../shared/ipc';
import { useCloseProject } from '../queries';
import { navigate, useRoute } from '../route';
import { findView, PROJECT_VIEWS } from '../views/registry';
import { Brand } from './Logo';

/** The frame of an open project: brand, project, the view tabs, connection state. */
export function ProjectShell({ project, connected }: { project: ProjectRef; connected: boolean }) {
  const route = useRoute();
  const view = findView(route.view);
  const close = useCloseProject();
  return (
    <div className="app-shell">
      <header className="topbar">
        <Brand />
        <div className="project-id">
          <h1>{project.name}</h1>
          <span className="project-path" title={project.root}>
            {project.root}
          </span>
        </div>
        <nav className="view-tabs" aria-label="Project views">
          {PROJECT_VIEWS.map((v) => (
            <a
              key={v.id}
              href={`#/${v.id}`}
              className={`view-tab ${v.id === view.id ? 'active' : ''}`}
              aria-current={v.id === view.id ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                navigate({ view: v.id });
              }}
            >
              {v.label}
            </a>
          ))}
        </nav>
        <div className="topbar-right">
          <span className={`live ${connected ? 'on' : 'off'}`} title={connected ? 'watching files for changes' : 'not connected — changes on disk are not shown live'}>
            <span className="live-dot" aria-hidden="true" />
            {connected ? 'Live' : 'Offline'}
          </span>
          <button type="button" className="btn ghost" onClick={() => close.mutate()}>
            Switch project
          </button>
        </div>
      </header>
      {view.render({ project, ...(route.view === view.id && route.arg !== undefined ? { arg: route.arg } : {}) })}
    </div>
  );
}
