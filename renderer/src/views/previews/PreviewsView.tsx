import { useMemo, useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { AddSkillActions, EmptyState, ErrorState } from '../../components/States';
import { SkillSearch } from '../../components/SkillSearch';
import { VirtualList } from '../../components/VirtualList';
import { useDashboard } from '../../queries';
import { navigate } from '../../route';
import { PreviewPanel } from './PreviewPanel';
import { useSavedFiles } from './queries';
import './previews.css';

/**
 * The previews screen: pick a skill, try an edit in a scratch draft (never saved from
 * here), and see what every target gets. The editor embeds the same PreviewPanel.
 */
export function PreviewsView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const dash = useDashboard(project.root);
  // A named skill opens at once; the list (the dashboard's scan) fills in beside it.
  const skills = useMemo(
    () => [...(dash.data?.skills ?? [])].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0)),
    [dash.data],
  );
  const dir = arg && (!dash.data || skills.some((s) => s.dir === arg)) ? arg : skills[0]?.dir;
  if (!dir) {
    return (
      <main className="page">
        {dash.isPending ? (
          <p className="muted">Reading the project…</p>
        ) : dash.isError ? (
          <ErrorState error={dash.error} onRetry={() => void dash.refetch()} />
        ) : (
          <EmptyState title="No skills to preview" actions={<AddSkillActions />}>
            Install or create a skill; its compiled output per agent shows here.
          </EmptyState>
        )}
      </main>
    );
  }
  return (
    <main className="page pv-view">
      <h1>Previews</h1>
      <div className="pv-layout">
        <Picker skills={skills} dir={dir} />
        <Draft key={dir} project={project} dir={dir} />
      </div>
    </main>
  );
}

function Picker({ skills, dir }: { skills: readonly { dir: string; loaded: boolean }[]; dir: string }) {
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = useMemo(() => skills.filter((s) => !q || s.dir.includes(q)), [skills, q]);
  return (
    <nav className="pv-skill-picker" aria-label="Skills">
      <h2 className="label">Skills</h2>
      {skills.length > 8 && <SkillSearch query={query} onQuery={setQuery} />}
      <VirtualList
        items={shown}
        keyOf={(s) => s.dir}
        estimate={32}
        maxHeight="var(--picker-height, 75vh)"
        label="Skills to preview"
      >
        {(s) => (
          <a
            href={`#/previews/${encodeURIComponent(s.dir)}`}
            className={`pv-skill-pick ${s.dir === dir ? 'on' : ''}`}
            aria-current={s.dir === dir ? 'page' : undefined}
            onClick={(e) => {
              e.preventDefault();
              navigate({ view: 'previews', arg: s.dir });
            }}
          >
            {s.dir}
            {!s.loaded && (
              <span className="pv-status-mark unsupported" title="does not load — see the dashboard">
                {' '}
                ○
              </span>
            )}
          </a>
        )}
      </VirtualList>
    </nav>
  );
}

function Draft({ project, dir }: { project: ProjectRef; dir: string }) {
  const saved = useSavedFiles(project.root, dir);
  if (saved.isPending)
    return (
      <section className="panel pv-draft" aria-label="Scratch draft" aria-busy="true">
        <p className="muted">Reading {dir}…</p>
      </section>
    );
  if (saved.isError)
    return (
      <>
        <section className="panel pv-draft" aria-label="Scratch draft">
          <ErrorState error={saved.error} onRetry={() => void saved.refetch()} />
        </section>
        <PreviewPanel project={project} dir={dir} files={NO_FILES} dirty={false} />
      </>
    );
  return <Editing project={project} dir={dir} saved={saved.data} />;
}

const NO_FILES: ReadonlyMap<string, string> = new Map();

function Editing({ project, dir, saved }: { project: ProjectRef; dir: string; saved: ReadonlyMap<string, string> }) {
  const paths = useMemo(
    () => [...saved.keys()].sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a < b ? -1 : 1)),
    [saved],
  );
  const [files, setFiles] = useState<ReadonlyMap<string, string>>(saved);
  const [tab, setTab] = useState(paths[0] ?? 'SKILL.md');
  const dirty = [...files].some(([p, t]) => saved.get(p) !== t);
  return (
    <>
      <section className="panel pv-draft" aria-label="Scratch draft">
        <div className="panel-head">
          <h2>Draft</h2>
          <span className="muted small">{dirty ? 'unsaved scratch edits — never written from here' : 'as saved'}</span>
        </div>
        <div className="segmented pv-draft-tabs" role="tablist" aria-label="Skill files">
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
          className="pv-draft-text mono"
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
      <PreviewPanel project={project} dir={dir} files={files} dirty={dirty} />
    </>
  );
}
