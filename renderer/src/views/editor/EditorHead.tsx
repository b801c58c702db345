import type { ProjectRef } from '../../../../shared/ipc';
import { plural } from '../../../../shared/text/format';
import { RunEvalsButton } from '../evals/RunEvalsButton';
import type { Analysis } from './analyze';

/** The skill's name and folder, its lint status, and the save buttons. */
export function EditorHead({
  project,
  dir,
  path,
  analysis,
  canSave,
  dirtyCount,
  onBack,
  onSave,
  onSaveAll,
}: {
  project: ProjectRef;
  dir: string;
  path: string;
  analysis: Analysis | null;
  canSave: boolean;
  dirtyCount: number;
  onBack: () => void;
  onSave: () => void;
  onSaveAll: () => void;
}) {
  return (
    <div className="ed-head">
      <div className="ed-title">
        <a href="#/editor" className="muted small" onClick={onBack}>
          Skills
        </a>
        <span className="muted small">/</span>
        <h1>{dir}</h1>
        <span className="muted small mono">{path}</span>
      </div>
      <div className="ed-actions">
        <StatusBadge summary={analysis?.summary} />
        <RunEvalsButton project={project} skill={dir} />
        <button type="button" className="btn" disabled={!canSave} onClick={onSave} title="Save this file (Ctrl/⌘+S)">
          Save
        </button>
        <button type="button" className="btn primary" disabled={dirtyCount === 0} onClick={onSaveAll}>
          Save all{dirtyCount ? ` (${dirtyCount})` : ''}
        </button>
      </div>
    </div>
  );
}

function StatusBadge({ summary }: { summary: Analysis['summary'] | undefined }) {
  if (!summary) return <span className="badge">checking…</span>;
  if (summary.blocking)
    return (
      <span className="badge fail" data-status="blocking">
        {summary.blocking} blocking
      </span>
    );
  if (summary.errors)
    return (
      <span className="badge fail" data-status="fail">
        {plural(summary.errors, 'error')}
      </span>
    );
  if (summary.warnings)
    return (
      <span className="badge warn" data-status="warn">
        {plural(summary.warnings, 'warning')}
      </span>
    );
  return (
    <span className="badge pass" data-status="pass">
      lint passes
    </span>
  );
}
