import { useRef } from 'react';
import type { Connection } from './api';
import { Brand } from './components/Logo';
import { Picker } from './components/Picker';
import { ProjectShell } from './components/ProjectShell';
import { DashboardSkeleton } from './components/DashboardSkeleton';
import { ErrorState } from './components/States';
import { useCurrentProject, useLiveRefresh } from './queries';
import './components/app-shell.css';
import './components/app-picker.css';

export function App({ connection }: { connection: Connection }) {
  const current = useCurrentProject();
  // Subscribed here too so a project opened from a native menu switches the view.
  useLiveRefresh(current.data?.project?.root ?? null);
  // A different project (opened from the picker or a native menu) starts on its
  // dashboard: the old route names a skill or tab of the previous project. Replaced
  // before the shell renders, so no view mounts on the stale route.
  const lastRoot = useRef<string | null>(null);
  const root = current.data?.project?.root ?? null;
  if (root && root !== lastRoot.current) {
    if (lastRoot.current !== null) window.history.replaceState(null, '', '#/dashboard');
    lastRoot.current = root;
  }
  if (current.isPending) {
    return (
      <div className="app-shell">
        <header className="app-topbar">
          <Brand />
        </header>
        <DashboardSkeleton />
      </div>
    );
  }
  if (current.isError) {
    return (
      <main className="app-picker">
        <ErrorState error={current.error} onRetry={() => void current.refetch()} />
      </main>
    );
  }
  const project = current.data.project;
  return project ? <ProjectShell key={project.root} project={project} connection={connection} /> : <Picker />;
}
