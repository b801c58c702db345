import { Suspense, useEffect, useState } from 'react';
import type { ProjectRef } from '../../../shared/ipc';
import type { Connection } from '../api';
import { useCloseProject } from '../queries';
import { navigate, useRoute } from '../route';
import { clearProjectDrafts, FLUSH_DRAFTS_EVENT, projectDrafts } from '../views/editor/drafts';
import { findView, PROJECT_VIEWS } from '../views/registry';
import { LiveBadge } from './LiveBadge';
import { Brand } from './Logo';
import { QuickOpen } from './QuickOpen';
import { SwitchDialog } from './SwitchDialog';
import { CompileDialog } from '../views/previews/CompileDialog';
// The dialogs the shell and every screen open (compile, switch, folder picker) are styled there.
import './app-shell.css';

/** The frame of an open project: brand, project, the view tabs, connection state. */
export function ProjectShell({ project, connection }: { project: ProjectRef; connection: Connection }) {
  const route = useRoute();
  const view = findView(route.view);
  const close = useCloseProject();
  const [asking, setAsking] = useState<string[] | null>(null);
  const leave = () => {
    setAsking(null);
    // The next project opens on its dashboard, not on this one's skill or tab.
    window.history.replaceState(null, '', '#/dashboard');
    close.mutate();
  };
  const switchProject = () => {
    window.dispatchEvent(new Event(FLUSH_DRAFTS_EVENT));
    const drafts = projectDrafts(project.root);
    if (drafts.length) setAsking(drafts);
    else leave();
  };

  const [quickOpen, setQuickOpen] = useState(false);
  const [compiling, setCompiling] = useState(false);
  // The shortcut map (README, "Keyboard"): Ctrl/Cmd+1…9 the n-th tab, Ctrl+P open a skill,
  // Ctrl+Shift+B compile (plan first). Ctrl+S is the editor's.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (!e.shiftKey && /^[1-9]$/.test(key) && PROJECT_VIEWS[Number(key) - 1])
        navigate({ view: PROJECT_VIEWS[Number(key) - 1]!.id });
      else if (!e.shiftKey && key === 'p') setQuickOpen(true);
      else if (e.shiftKey && key === 'b') setCompiling(true);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="app-shell">
      <a
        className="app-skip-link"
        href="#main-content"
        onClick={(e) => {
          e.preventDefault();
          const main = document.querySelector<HTMLElement>('main, [role="main"]');
          main?.setAttribute('tabindex', '-1');
          main?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="app-topbar">
        <Brand />
        <div className="app-project-id">
          <h1 title={project.name}>{project.name}</h1>
          <span className="app-project-path" title={project.root}>
            {project.root}
          </span>
        </div>
        <nav className="app-view-tabs" aria-label="Project views">
          {PROJECT_VIEWS.map((v, i) => (
            <a
              key={v.id}
              href={`#/${v.id}`}
              className={`app-view-tab ${v.id === view.id ? 'active' : ''}`}
              aria-current={v.id === view.id ? 'page' : undefined}
              title={i < 9 ? `${v.label} (Ctrl+${i + 1})` : v.label}
              onClick={(e) => {
                e.preventDefault();
                navigate({ view: v.id });
              }}
            >
              {v.label}
            </a>
          ))}
        </nav>
        <div className="app-topbar-right">
          <LiveBadge root={project.root} connection={connection} />
          <button type="button" className="btn ghost" onClick={switchProject} data-action="switch-project">
            Switch project
          </button>
        </div>
      </header>
      <Suspense
        fallback={
          <main className="page" aria-busy="true">
            <p className="muted">Loading {view.label}…</p>
          </main>
        }
      >
        {view.render({ project, ...(route.view === view.id && route.arg !== undefined ? { arg: route.arg } : {}) })}
      </Suspense>
      {quickOpen && <QuickOpen root={project.root} onClose={() => setQuickOpen(false)} />}
      {compiling && (
        <CompileDialog
          project={project}
          dirty={projectDrafts(project.root).length > 0}
          onClose={() => setCompiling(false)}
        />
      )}
      {asking && (
        <SwitchDialog
          drafts={asking}
          onCancel={() => setAsking(null)}
          onKeep={leave}
          onDiscard={() => {
            clearProjectDrafts(project.root);
            leave();
          }}
        />
      )}
    </div>
  );
}
