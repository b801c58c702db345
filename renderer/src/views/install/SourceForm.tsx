import { useState } from 'react';
import { useApi } from '../../api/context';
import { useAppInfo } from '../../queries';
import { ErrorLine } from './ErrorLine';
import { sourceOf, type Draft, type SourceKind } from './source';

/** Where the skill comes from: a folder, a git URL with ref and path, or a GitHub shorthand. */
export function SourceForm({
  draft,
  set,
  busy,
  onReview,
}: {
  draft: Draft;
  set: (d: Partial<Draft>) => void;
  busy: boolean;
  onReview: (source: string) => void;
}) {
  const api = useApi();
  const info = useAppInfo();
  const canPick = info.data?.capabilities.pickFolder === true;
  const [pickError, setPickError] = useState<unknown>(null);
  const source = sourceOf(draft);
  const tabs: { id: SourceKind; label: string }[] = [
    { id: 'folder', label: 'Folder' },
    { id: 'git', label: 'Git URL' },
    { id: 'github', label: 'GitHub' },
  ];
  return (
    <form
      className="panel inst-source"
      aria-label="Install source"
      onSubmit={(e) => {
        e.preventDefault();
        if (source && !busy) onReview(source);
      }}
    >
      <div className="panel-head">
        <h2>Source</h2>
        <span className="muted small">Nothing is written until you approve the review.</span>
      </div>
      <div className="segmented inst-kinds" role="tablist" aria-label="Kind of source">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={draft.kind === t.id}
            className={draft.kind === t.id ? 'active' : ''}
            onClick={() => set({ kind: t.id })}
          >
            {t.label}
          </button>
        ))}
      </div>
      {draft.kind === 'folder' && (
        <div className="inst-fields">
          <SourceField
            label="Folder with SKILL.md"
            aria="Folder path"
            value={draft.folder}
            placeholder="/path/to/skill or ./relative/to/project"
            onChange={(v) => set({ folder: v })}
            grow
          />
          {canPick && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                setPickError(null);
                api.app
                  .pickFolder({})
                  .then((r) => r.path && set({ folder: r.path }))
                  .catch(setPickError);
              }}
            >
              Choose folder…
            </button>
          )}
        </div>
      )}
      {draft.kind === 'git' && (
        <div className="inst-fields">
          <SourceField
            label="Repository URL"
            aria="Git URL"
            value={draft.gitUrl}
            placeholder="https://…/repo.git, git@host:org/repo.git, file:///…/repo.git"
            onChange={(v) => set({ gitUrl: v })}
            grow
          />
          <SourceField
            label="Ref"
            aria="Git ref"
            value={draft.gitRef}
            placeholder="tag, branch or commit"
            onChange={(v) => set({ gitRef: v })}
            short
          />
          <SourceField
            label="Path in repository"
            aria="Path in repository"
            value={draft.gitPath}
            placeholder="skills/name"
            onChange={(v) => set({ gitPath: v })}
            short
          />
        </div>
      )}
      {draft.kind === 'github' && (
        <div className="inst-fields">
          <SourceField
            label="GitHub source"
            aria="GitHub source"
            value={draft.github}
            placeholder="gh:owner/repo/path/to/skill@ref"
            onChange={(v) => set({ github: v })}
            grow
          />
        </div>
      )}
      {pickError !== null && (
        <ErrorLine error={pickError} origin="app.pickFolder" onDismiss={() => setPickError(null)} />
      )}
      <div className="inst-source-foot">
        <span className="muted small">
          source: <code data-field="composed-source">{source || '—'}</code>
        </span>
        <button type="submit" className="btn primary" disabled={!source || busy}>
          {busy ? 'Reviewing…' : 'Review'}
        </button>
      </div>
    </form>
  );
}

/** One labelled text input of the source form. */
function SourceField(props: {
  label: string;
  aria: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
  grow?: boolean;
  short?: boolean;
}) {
  return (
    <label className={`inst-field${props.grow ? ' grow' : ''}`}>
      <span>{props.label}</span>
      <input
        className={`filter inst-input${props.short ? ' short' : ''}`}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
        aria-label={props.aria}
        spellCheck={false}
      />
    </label>
  );
}
