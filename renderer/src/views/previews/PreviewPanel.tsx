import { useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { CompileDialog } from './CompileDialog';
import { LivePreviews } from './LivePreviews';
import './previews.css';

export interface PreviewPanelProps {
  readonly project: ProjectRef;
  /** The skill's folder name under `.kitbash/skills/`. */
  readonly dir: string;
  /**
   * The skill's current (unsaved) buffers, keyed by skill-relative path: 'skill.toml', 'SKILL.md', 'prompts/x.md', …
   */
  readonly files: ReadonlyMap<string, string>;
  /** The buffers differ from the skill's files as saved (Compile says it leaves them out). */
  readonly dirty: boolean;
}

/**
 * What every target receives for the edited skill: main plans the project with these
 * buffers exactly as `skillsmith compile` would once they are saved, against what is on
 * disk now, and sends this skill's part of the answer.
 */
export function PreviewPanel({ project, dir, files, dirty }: PreviewPanelProps) {
  const [compileOpen, setCompileOpen] = useState(false);
  return (
    <section className="pv-pane panel" aria-label="Compiled previews" data-skill={dir}>
      <div className="panel-head">
        <h2>Compiled previews</h2>
        <div className="pv-actions">
          <button type="button" className="btn primary" onClick={() => setCompileOpen(true)}>
            Compile…
          </button>
        </div>
      </div>
      <LivePreviews root={project.root} dir={dir} files={files} />
      {compileOpen && <CompileDialog project={project} dirty={dirty} onClose={() => setCompileOpen(false)} />}
    </section>
  );
}
