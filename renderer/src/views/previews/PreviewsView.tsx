import { useMemo, useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { CompileSnapshot } from '../../../../shared/ipc/channels/compile';
import { AddSkillActions, EmptyState, ErrorState } from '../../components/States';
import { navigate } from '../../route';
import { PreviewPanel } from './PreviewPanel';
import { useCompileSnapshot } from './queries';

/** Text files of a skill as saved (what the editor's buffers start from). */
function savedFiles(snap: CompileSnapshot, dir: string): Map<string, string> {
  const s = snap.skills.find((x) => x.dir === dir);
  const m = new Map<string, string>();
  for (const e of s?.entries ?? [])
    if (e.kind === 'file' && e.text !== undefined && /\.(md|toml|ya?ml|txt)$/.test(e.path)) m.set(e.path, e.text);
  return m;
}

/**
 * The previews screen: pick a skill, try an edit in a scratch draft (never saved from
 * here), and see what every target gets. The editor embeds the same PreviewPanel.
 */
export function PreviewsView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const snapshot = useCompileSnapshot(project.root);
  if (snapshot.isPending)
    return (
      <main className="dashboard">
        <p className="muted">Reading the project…</p>
      </main>
    );
  if (snapshot.isError)
    return (
      <main className="dashboard">
        <ErrorState error={snapshot.error} onRetry={() => void snapshot.refetch()} />
      </main>
    );
  const snap = snapshot.data;
  const dirs = snap.skills.map((s) => s.dir);
  const dir = arg && dirs.includes(arg) ? arg : dirs[0];
  if (!dir) {
    return (
      <main className="dashboard">
        <EmptyState title="No skills to preview" actions={<AddSkillActions />}>
          Install or create a skill; its compiled output per agent shows here.
        </EmptyState>
      </main>
    );
  }
  return (
    <main className="dashboard previews-view">
      <div className="previews-layout">
        <nav className="skill-picker" aria-label="Skills">
          <h3>Skills</h3>
          <ul>
            {snap.skills.map((s) => (
              <li key={s.dir}>
                <a
                  href={`#/previews/${encodeURIComponent(s.dir)}`}
                  className={`skill-pick ${s.dir === dir ? 'on' : ''}`}
                  aria-current={s.dir === dir ? 'page' : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate({ view: 'previews', arg: s.dir });
                  }}
                >
                  {s.dir}
                  {s.broken && (
                    <span className="status-mark unsupported" title={s.broken}>
                      {' '}
                      ○
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <Draft key={dir} project={project} dir={dir} saved={savedFiles(snap, dir)} />
      </div>
    </main>
  );
}

function Draft({ project, dir, saved }: { project: ProjectRef; dir: string; saved: Map<string, string> }) {
  const paths = useMemo(
    () => [...saved.keys()].sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a < b ? -1 : 1)),
    [saved],
  );
  const [files, setFiles] = useState<ReadonlyMap<string, string>>(saved);
  const [tab, setTab] = useState(paths[0] ?? 'SKILL.md');
  const dirty = [...files].some(([p, t]) => saved.get(p) !== t);
  return (
    <>
      <section className="panel draft" aria-label="Scratch draft">
        <div className="panel-head">
          <h2>Draft</h2>
          <span className="muted small">{dirty ? 'unsaved scratch edits — never written from here' : 'as saved'}</span>
        </div>
        <div className="segmented draft-tabs" role="tablist" aria-label="Skill files">
          {paths.map((p) => (
            <button
              key={p}
              type="button"
              role="tab"
              aria-selected={p === tab}
              className={p === tab ? 'on' : ''}
              onClick={() => setTab(p)}
            >
              {p}
            </button>
          ))}
        </div>
        <textarea
          className="draft-text mono"
          aria-label={`Draft of ${tab}`}
          spellCheck={false}
          value={files.get(tab) ?? ''}
          onChange={(e) => {
            const next = new Map(files);
            next.set(tab, e.target.value);
            setFiles(next);
          }}
        />
        {dirty && (
          <button type="button" className="btn ghost" onClick={() => setFiles(saved)}>
            Revert to saved
          </button>
        )}
      </section>
      <PreviewPanel project={project} dir={dir} files={files} />
    </>
  );
}
