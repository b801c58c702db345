import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { IpcError } from '../../../shared/ipc/errors';
import { useApi } from '../api/context';
import { relativeTime } from '../format';
import { useAppInfo, useOpenProject, useRecent } from '../queries';
import { FolderBrowser } from './FolderBrowser';
import { Logo } from './Logo';
import { Spinner } from './States';
import { queryKeys } from '../query-keys';
import './app-picker.css';

/** The project picker: recent projects, open a folder, open the bundled example. */
export function Picker() {
  const api = useApi();
  const qc = useQueryClient();
  const info = useAppInfo();
  const recent = useRecent();
  const open = useOpenProject();
  const [path, setPath] = useState('');
  const [pickError, setPickError] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState(false);

  const openPath = (p: string) => {
    setPickError(null);
    open.mutate(p);
  };
  const pick = async () => {
    setPickError(null);
    try {
      const r = await api.app.pickFolder({});
      if (r.path) openPath(r.path);
    } catch (e) {
      setPickError(e instanceof Error ? e.message : String(e));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (path.trim()) openPath(path.trim());
  };
  const forget = async (p: string) => {
    const r = await api.app.forgetRecent({ path: p });
    qc.setQueryData(queryKeys.app.recent(), r);
  };

  const canPick = info.data?.capabilities.pickFolder === true;
  const error = open.error ?? (pickError ? new Error(pickError) : null);
  const projects = recent.data?.projects ?? [];
  // Browse… starts beside the typed path or the last project, where the next one most likely is.
  const browseFrom = parentFolder(path.trim() || projects[0]?.path);

  return (
    <main className="app-picker">
      <header className="app-picker-hero">
        <Logo size={56} />
        <div>
          <h1>Skillsmith</h1>
          <p className="app-tagline">
            See what every coding agent loads from your skills, what it costs, and what needs fixing.
          </p>
        </div>
      </header>

      <section className="app-picker-grid">
        <div className="panel app-picker-open">
          <h2>Open a project</h2>
          <p className="muted">
            A project is any folder with a <code>kitbash.toml</code> or installed skills under{' '}
            <code>.kitbash/skills/</code>. Open any other folder to set it up from its dashboard.
          </p>
          {canPick && (
            <button type="button" className="btn primary wide" onClick={() => void pick()} disabled={open.isPending}>
              Open folder…
            </button>
          )}
          <form className="app-path-form" onSubmit={submit}>
            <label htmlFor="project-path">{canPick ? 'or type a path' : 'Folder path'}</label>
            <div className="app-path-row">
              <input
                id="project-path"
                type="text"
                spellCheck={false}
                placeholder="/home/me/code/my-repo"
                value={path}
                onChange={(e) => setPath(e.target.value)}
              />
              <button
                type="submit"
                className={`btn ${canPick ? '' : 'primary'}`}
                disabled={!path.trim() || open.isPending}
              >
                Open
              </button>
              {!canPick && (
                <button
                  type="button"
                  className="btn"
                  onClick={() => setBrowsing(true)}
                  disabled={open.isPending}
                  data-action="browse"
                >
                  Browse…
                </button>
              )}
            </div>
          </form>
          {info.data?.examplePath && (
            <button
              type="button"
              className="btn ghost wide app-example"
              onClick={() => openPath(info.data!.examplePath!)}
              disabled={open.isPending}
            >
              <span aria-hidden="true">✦</span> Open the example workspace
            </button>
          )}
          {open.isPending && (
            <p className="muted">
              <Spinner label="Opening" /> Opening…
            </p>
          )}
          {error && (
            <p className="inline-error" role="alert">
              {error instanceof IpcError && error.code === 'invalid-request'
                ? 'That is not an absolute folder path.'
                : error.message}
            </p>
          )}
        </div>

        <div className="panel app-picker-recent">
          <h2>Recent projects</h2>
          {recent.isPending ? (
            <ul className="app-recent-list">
              {[0, 1, 2].map((i) => (
                <li key={i} className="app-recent skeleton-line" />
              ))}
            </ul>
          ) : recent.isError ? (
            <p className="inline-error">Could not read the recent list: {recent.error.message}</p>
          ) : projects.length === 0 ? (
            <div className="app-recent-empty">
              <p>No recent projects yet.</p>
              <p className="muted">Projects you open appear here, newest first.</p>
            </div>
          ) : (
            <ul className="app-recent-list" aria-label="Recent projects">
              {projects.map((p) => (
                <li key={p.path} className={`app-recent ${p.exists ? '' : 'gone'}`}>
                  <button
                    type="button"
                    className="app-recent-open"
                    onClick={() => openPath(p.path)}
                    disabled={!p.exists || open.isPending}
                    title={p.path}
                  >
                    <span className="app-recent-name">{p.name}</span>
                    <span className="app-recent-path">{p.path}</span>
                  </button>
                  <span className="app-recent-meta">{p.exists ? relativeTime(p.openedAt) : 'missing'}</span>
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Forget ${p.name}`}
                    title="Forget"
                    onClick={() => void forget(p.path)}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      {browsing && (
        <FolderBrowser
          {...(browseFrom ? { start: browseFrom } : {})}
          onClose={() => setBrowsing(false)}
          onChoose={(p) => {
            setBrowsing(false);
            setPath(p);
            openPath(p);
          }}
        />
      )}
      <footer className="app-picker-foot muted">
        Skillsmith {info.data?.version ?? ''} · everything stays on this machine
      </footer>
    </main>
  );
}

/** The folder that holds `path` (either separator), or undefined for a root or nothing. */
function parentFolder(path: string | undefined): string | undefined {
  const cut = path ? Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) : -1;
  return cut > 0 ? path!.slice(0, cut) : undefined;
}
