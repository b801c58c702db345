import { useState } from 'react';
import type { Diagnostic } from './analyze';
import type { FileState } from './session';

/** The open skill's files as tabs, with the counts of their findings, and the buttons that add a file. */
export function FileTabs({
  tabs,
  current,
  diagnostics,
  loaded,
  onSelect,
  onAddSpec,
  onAddEval,
  onAddPrompt,
}: {
  tabs: readonly FileState[];
  current: string | undefined;
  diagnostics: readonly Diagnostic[];
  loaded: boolean;
  onSelect: (path: string) => void;
  onAddSpec?: () => void;
  onAddEval: () => void;
  onAddPrompt: (name: string) => void;
}) {
  const [adding, setAdding] = useState(false);
  return (
    <div className="ed-tabs">
      <div className="ed-tablist" role="tablist" aria-label="Files">
        {tabs.map((t) => (
          <FileTab
            key={t.path}
            file={t}
            active={current === t.path}
            problems={diagnostics.filter((d) => d.file === t.path)}
            onClick={() => onSelect(t.path)}
          />
        ))}
      </div>
      {loaded && onAddSpec ? (
        <button type="button" className="ed-tab add" onClick={onAddSpec}>
          + skill.spec.yml
        </button>
      ) : null}
      {loaded ? (
        <button type="button" className="ed-tab add" data-testid="new-eval" onClick={onAddEval}>
          + eval
        </button>
      ) : null}
      {loaded ? (
        adding ? (
          <NewPromptInput
            onDone={(name) => {
              setAdding(false);
              if (name) onAddPrompt(name);
            }}
          />
        ) : (
          <button type="button" className="ed-tab add" onClick={() => setAdding(true)}>
            + prompt
          </button>
        )
      ) : null}
    </div>
  );
}

function NewPromptInput({ onDone }: { onDone: (name: string | null) => void }) {
  const [v, setV] = useState('');
  const ok = /^[a-z0-9][a-z0-9-]*$/.test(v);
  return (
    <form
      className="ed-tab add-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (ok) onDone(v);
      }}
    >
      <span className="mono small">prompts/</span>
      <input
        autoFocus
        value={v}
        aria-label="Prompt name"
        placeholder="name"
        onChange={(e) => setV(e.target.value)}
        onBlur={() => !v && onDone(null)}
        onKeyDown={(e) => e.key === 'Escape' && onDone(null)}
      />
      <span className="mono small">.md</span>
    </form>
  );
}

function FileTab({
  file,
  active,
  problems,
  onClick,
}: {
  file: FileState;
  active: boolean;
  problems: Diagnostic[];
  onClick: () => void;
}) {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  return (
    <button
      type="button"
      role="tab"
      aria-selected={active}
      className={`ed-tab ${active ? 'active' : ''}`}
      data-tab={file.path}
      title={file.dirty ? `${file.path} — unsaved changes${file.restored ? ' (restored draft)' : ''}` : file.path}
      onClick={onClick}
    >
      <span className="mono">{file.path}</span>
      {errors ? (
        <span className="ed-tab-count fail">{errors}</span>
      ) : warnings ? (
        <span className="ed-tab-count warn">{warnings}</span>
      ) : null}
      {file.conflict ? (
        <span className="ed-tab-flag" title="changed on disk">
          !
        </span>
      ) : null}
      {file.dirty ? <span className="ed-tab-dirty" aria-label="unsaved" /> : null}
    </button>
  );
}
