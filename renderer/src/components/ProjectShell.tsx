import { Suspense, useEffect, useState } from 'react';
import type { ProjectRef } from '../../../shared/ipc';
import type { Connection } from '../api';
import { useCloseProject } from '../queries';
import { navigate, useRoute } from '../route';
import { clearProjectDrafts, FLUSH_DRAFTS_EVENT, projectDrafts } from '../views/editor/drafts';
import { findView, PROJECT_VIEWS } from '../views/registry';
import { LiveBadge } from './LiveBadge';
import { splitProjectPath } from './project-path';
import { Brand } from './Logo';
import { QuickOpen } from './QuickOpen';
import { SwitchDialog } from './SwitchDialog';
import { CompileDialog } from '../views/previews/CompileDialog';
import { currentShell, shortcutFor, shortcutLabel } from '../shortcuts';
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
  // The shortcut map (README, "Keyboard"; shortcuts.ts): the n-th tab, open a skill, compile
  // (plan first) — Ctrl/Cmd in Electron, Alt+Shift in a browser. Ctrl+S is the editor's.
  const shell = currentShell();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutFor(e, shell);
      if (!action) return;
      if (action.kind === 'tab') {
        const target = PROJECT_VIEWS[action.index];
        if (!target) return;
        navigate({ view: target.id });
      } else if (action.kind === 'quick-open') setQuickOpen(true);
      else setCompiling(true);
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shell]);
  const path = splitProjectPath(project.root);

  return (
    <div className="app-shell">
      <a
        className="app-skip-link"
        href="#main-content"
        onClick={(e) => {
          // The hash is the app's route: focus the view's <main> instead of following the link.
          e.preventDefault();
          const target = document.getElementById('main-content');
          const main = target?.querySelector<HTMLElement>('main') ?? target;
          main?.setAttribute('tabindex', '-1');
          main?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="app-topbar">
        <Brand />
        <div className="app-project-id">
          <span className="app-project-name" title={project.name}>
            {project.name}
          </span>
          <span className="app-project-path" title={project.root}>
            <span className="app-project-path-head">
              <bdi>{path.head}</bdi>
            </span>
            <bdi className="app-project-path-tail">{path.tail}</bdi>
          </span>
        </div>
        <nav className="app-view-tabs" aria-label="Project views">
          {PROJECT_VIEWS.map((v, i) => (
            <a
              key={v.id}
              href={`#/${v.id}`}
              className={`app-view-tab ${v.id === view.id ? 'active' : ''}`}
              aria-current={v.id === view.id ? 'page' : undefined}
              title={i < 9 ? `${v.label} (${shortcutLabel({ kind: 'tab', index: i }, shell)})` : v.label}
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
      <div id="main-content" tabIndex={-1} className="app-main-content">
        <Suspense
          fallback={
            <main className="page" aria-busy="true">
              <p className="muted">Loading {view.label}…</p>
            </main>
          }
        >
          {view.render({ project, ...(route.view === view.id && route.arg !== undefined ? { arg: route.arg } : {}) })}
        </Suspense>
      </div>
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
