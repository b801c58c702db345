import { useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { CompileSnapshot } from '../../../../shared/ipc/channels/compile';
import { Spinner } from '../../components/States';
import { CompileDialog } from './CompileDialog';
import { LivePreviews } from './LivePreviews';
import { useCompileSnapshot } from './queries';
import './previews.css';

export interface PreviewPanelProps {
  readonly project: ProjectRef;
  /** The skill's folder name under `.kitbash/skills/`. */
  readonly dir: string;
  /**
   * The skill's current (unsaved) buffers, keyed by skill-relative path: 'skill.toml', 'SKILL.md', 'prompts/x.md', …
   */
  readonly files: ReadonlyMap<string, string>;
}

/**
 * What every target receives for the edited skill, planned live in the renderer with the
 * same pure planner `skillsmith compile` uses, against what is on disk now.
 */
export function PreviewPanel({ project, dir, files }: PreviewPanelProps) {
  const snapshot = useCompileSnapshot(project.root);
  const [compileOpen, setCompileOpen] = useState(false);
  return (
    <section className="previews panel" aria-label="Compiled previews" data-skill={dir}>
      <div className="panel-head previews-head">
        <h2>Compiled previews</h2>
        <div className="previews-actions">
          {snapshot.isFetching && <Spinner label="Reading the project" />}
          <button type="button" className="btn primary" onClick={() => setCompileOpen(true)}>
            Compile…
          </button>
        </div>
      </div>
      {snapshot.isPending ? (
        <p className="muted">Reading the project…</p>
      ) : snapshot.isError ? (
        <p className="inline-error" role="alert">
          Could not read the project for previews:{' '}
          {snapshot.error instanceof Error ? snapshot.error.message : String(snapshot.error)}
        </p>
      ) : (
        <LivePreviews snapshot={snapshot.data} dir={dir} files={files} />
      )}
      {compileOpen && (
        <CompileDialog
          project={project}
          dirty={snapshot.data ? isDirty(snapshot.data, dir, files) : false}
          onClose={() => setCompileOpen(false)}
        />
      )}
    </section>
  );
}

/** True when the buffers differ from the skill's files as saved. */
export function isDirty(snap: CompileSnapshot, dir: string, files: ReadonlyMap<string, string>): boolean {
  const s = snap.skills.find((x) => x.dir === dir);
  if (!s) return files.size > 0;
  for (const [path, text] of files) {
    const e = s.entries.find((x) => x.path === path);
    if (!e || e.kind !== 'file' || e.text !== text) return true;
  }
  return false;
}
