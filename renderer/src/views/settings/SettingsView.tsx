import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { SettingsData, SettingsPreview } from '../../../../shared/ipc/channels/settings';
import { useApi } from '../../api/context';
import { ErrorState } from '../../components/States';
import { BOOLEAN_FIELDS, LIST_FIELDS, NUMBER_FIELDS, draftOf, editsOf, type Draft, type PolicyField } from './draft';
import { ReviewChanges } from './ReviewChanges';
import './settings.css';
import { queryKeys } from '../../query-keys';

/** kitbash.toml in the app: targets, [policy] and reviewed exceptions, saved only after the change is reviewed. */
export function SettingsView({ project }: { project: ProjectRef }) {
  const api = useApi();
  const read = useQuery({
    queryKey: queryKeys.settings.read(project.root),
    queryFn: () => api.settings.read({}),
    retry: false,
  });
  // Kept here: a save changes the version, which remounts the form.
  const [saved, setSaved] = useState(false);
  if (read.isPending)
    return (
      <main className="page">
        <p className="muted">Reading kitbash.toml…</p>
      </main>
    );
  if (read.isError)
    return (
      <main className="page">
        <ErrorState error={read.error} onRetry={() => void read.refetch()} />
      </main>
    );
  if (read.data.error) {
    return (
      <main className="page set-view">
        <section className="panel set-broken" role="alert">
          <strong>kitbash.toml cannot be edited here.</strong> {read.data.error}
        </section>
      </main>
    );
  }
  return (
    <SettingsForm
      key={read.data.version ?? 'none'}
      data={read.data}
      root={project.root}
      saved={saved}
      setSaved={setSaved}
      onReload={() => void read.refetch()}
    />
  );
}

function SettingsForm({
  data,
  root,
  saved,
  setSaved,
  onReload,
}: {
  data: SettingsData;
  root: string;
  saved: boolean;
  setSaved: (v: boolean) => void;
  onReload: () => void;
}) {
  const api = useApi();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(data));
  const [preview, setPreview] = useState<Extract<SettingsPreview, { ok: true }> | null>(null);
  const [refusal, setRefusal] = useState<{ conflict: boolean; message: string } | null>(null);
  const edits = editsOf(data, draft);
  const setPolicy = (k: PolicyField, v: boolean | number | readonly string[] | null) => {
    setDraft((d) => ({ ...d, policy: { ...d.policy, [k]: v } }));
    setSaved(false);
  };

  const review = useMutation({
    mutationFn: () => api.settings.preview({ version: data.version, edits }),
    onSuccess: (p) => (p.ok ? (setPreview(p), setRefusal(null)) : setRefusal(p)),
  });
  const save = useMutation({
    mutationFn: () => api.settings.apply({ version: data.version, edits }),
    onSuccess: (r) => {
      if (!r.ok) return setRefusal(r);
      setSaved(true);
      setPreview(null);
      void qc.invalidateQueries({ queryKey: queryKeys.settings.read(root) });
      void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(root) });
    },
  });

  const confirm = useMutation({
    mutationFn: (id: string) => api.settings.confirmException({ id }),
    onSuccess: (r) => {
      if (!r.ok) return setRefusal(r);
      void qc.invalidateQueries({ queryKey: queryKeys.settings.read(root) });
      void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(root) });
    },
  });

  if (preview)
    return (
      <main className="page set-view">
        <ReviewChanges
          preview={preview}
          saving={save.isPending}
          onSave={() => save.mutate()}
          onBack={() => setPreview(null)}
        />
        {refusal && <Refusal r={refusal} onReload={onReload} />}
      </main>
    );

  const targets = draft.targets;
  const toggleTarget = (id: string, on: boolean) => {
    const cur = targets ?? [];
    setDraft((d) => ({ ...d, targets: on ? [...cur, id] : cur.filter((t) => t !== id) }));
  };
  return (
    <main className="page set-view" data-testid="settings-view">
      <h1>Settings</h1>
      {saved && (
        <p className="set-saved" role="status">
          Saved kitbash.toml.
        </p>
      )}
      {refusal && <Refusal r={refusal} onReload={onReload} />}
      <section className="panel" aria-labelledby="set-targets">
        <div className="panel-head">
          <h2 id="set-targets">Compile targets</h2>
          <label className="set-inline small">
            <input
              type="checkbox"
              checked={targets === null}
              onChange={(e) =>
                setDraft((d) => ({ ...d, targets: e.target.checked ? null : [...(data.targets ?? [])] }))
              }
            />
            Detect from the project's agent folders
          </label>
        </div>
        <ul className="set-targets">
          {data.known.map((t) => (
            <li key={t.id}>
              <label>
                <input
                  type="checkbox"
                  disabled={targets === null}
                  checked={targets?.includes(t.id) ?? false}
                  onChange={(e) => toggleTarget(t.id, e.target.checked)}
                  data-target={t.id}
                />
                <code>{t.id}</code> <span className="muted small">{t.agent}</span>
              </label>
            </li>
          ))}
        </ul>
      </section>

      <section className="panel" aria-labelledby="set-policy">
        <div className="panel-head">
          <h2 id="set-policy">Policy</h2>
          <span className="muted small">
            {data.policy === null
              ? 'No [policy] table: no policy applies until you set one.'
              : 'Enforced by install; doctor and the dashboard report installed skills that break it.'}
          </span>
        </div>
        <div className="set-grid">
          {BOOLEAN_FIELDS.map((f) => (
            <label key={f.key} className="set-inline">
              <input
                type="checkbox"
                checked={(draft.policy[f.key] as boolean | null) ?? f.fallback}
                onChange={(e) => setPolicy(f.key, e.target.checked)}
                data-field={f.key}
              />
              {f.label} <code className="small muted">{f.key}</code>
            </label>
          ))}
          {NUMBER_FIELDS.map((f) => (
            <NumberField
              key={f.key}
              label={f.label}
              name={f.key}
              placeholder={f.placeholder}
              value={draft.policy[f.key] as number | null}
              onChange={(v) => setPolicy(f.key, v)}
            />
          ))}
          {LIST_FIELDS.map((f) => (
            <label key={f.key} className="set-field">
              <span>
                {f.label} <code className="small muted">{f.key}</code>
              </span>
              <textarea
                rows={3}
                placeholder={f.placeholder}
                data-field={f.key}
                defaultValue={((draft.policy[f.key] as readonly string[] | null) ?? []).join('\n')}
                onChange={(e) => {
                  const list = e.target.value
                    .split('\n')
                    .map((s) => s.trim())
                    .filter(Boolean);
                  setPolicy(f.key, list.length ? list : null);
                }}
              />
            </label>
          ))}
        </div>
      </section>

      <section className="panel" aria-labelledby="set-exceptions">
        <div className="panel-head">
          <h2 id="set-exceptions">Reviewed exceptions</h2>
          <span className="muted small">
            Each accepts one finding of one exact skill version once you have confirmed it; the install review writes
            and confirms them.
          </span>
        </div>
        {data.exceptions.length === 0 ? (
          <p className="muted small">None.</p>
        ) : (
          <ul className="set-exceptions">
            {data.exceptions.map((x) => {
              const gone = draft.remove.has(x.index);
              return (
                <li key={x.index} className={gone ? 'set-gone' : ''} data-exception={x.index}>
                  {x.entry ? (
                    <span>
                      <strong>{x.entry.skill}</strong> · <code>{x.entry.check}</code> at{' '}
                      <code>
                        {x.entry.file}:{x.entry.line}
                      </code>{' '}
                      — {x.entry.by}: {x.entry.reason}
                      {!x.confirmed && (
                        <span className="set-unconfirmed">
                          Arrived with the project, not confirmed by you: it accepts nothing until you confirm it.
                        </span>
                      )}
                    </span>
                  ) : (
                    <span className="set-invalid">Ignored entry: {x.problem}</span>
                  )}
                  <span className="set-actions">
                    {x.entry && x.id !== null && !x.confirmed && (
                      <button
                        type="button"
                        className="btn"
                        data-action="confirm-exception"
                        disabled={confirm.isPending || gone}
                        onClick={() => confirm.mutate(x.id!)}
                      >
                        Confirm
                      </button>
                    )}
                    <button
                      type="button"
                      className="btn"
                      onClick={() =>
                        setDraft((d) => {
                          const remove = new Set(d.remove);
                          if (gone) remove.delete(x.index);
                          else remove.add(x.index);
                          return { ...d, remove };
                        })
                      }
                    >
                      {gone ? 'Keep' : 'Remove'}
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <div className="set-footer">
        <span className="muted small">
          {edits.length === 0
            ? 'No changes.'
            : `${edits.length} change${edits.length === 1 ? '' : 's'} to kitbash.toml.`}
        </span>
        <button
          type="button"
          className="btn primary"
          disabled={edits.length === 0 || review.isPending}
          onClick={() => review.mutate()}
          data-action="settings-review"
        >
          {review.isPending ? 'Checking…' : 'Review changes'}
        </button>
      </div>
      {review.isError && <ErrorState error={review.error} />}
    </main>
  );
}

function NumberField({
  label,
  name,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  name: string;
  placeholder: string;
  value: number | null;
  onChange: (v: number | null) => void;
}) {
  const [text, setText] = useState(value === null ? '' : String(value));
  const bad = text.trim() !== '' && !/^\d+$/.test(text.trim());
  return (
    <label className="set-field">
      <span>
        {label} <code className="small muted">{name}</code>
      </span>
      <input
        type="text"
        inputMode="numeric"
        value={text}
        placeholder={placeholder}
        aria-invalid={bad}
        data-field={name}
        onChange={(e) => {
          setText(e.target.value);
          const t = e.target.value.trim();
          if (t === '') onChange(null);
          else if (/^\d+$/.test(t) && Number.isSafeInteger(Number(t))) onChange(Number(t));
        }}
      />
      {bad && <span className="set-bad small">A whole number, or empty for none.</span>}
    </label>
  );
}

function Refusal({ r, onReload }: { r: { conflict: boolean; message: string }; onReload: () => void }) {
  return (
    <p className="set-refusal" role="alert">
      {r.message}{' '}
      {r.conflict && (
        <button type="button" className="btn" onClick={onReload}>
          Reload
        </button>
      )}
    </p>
  );
}
