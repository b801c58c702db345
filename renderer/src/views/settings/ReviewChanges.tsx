import type { SettingsPreview } from '../../../../shared/ipc/channels/settings';

type Ok = Extract<SettingsPreview, { ok: true }>;

const CHANGE_WORD = {
  blocked: 'becomes refused',
  unblocked: 'no longer refused',
  'still-blocked': 'stays refused; its reasons change',
} as const;

/** The diff of kitbash.toml and what the change does to the installed skills, shown before anything is saved. */
export function ReviewChanges({
  preview,
  saving,
  onSave,
  onBack,
}: {
  preview: Ok;
  saving: boolean;
  onSave: () => void;
  onBack: () => void;
}) {
  const lines = preview.diff.split('\n').filter((l) => l !== '' && !l.startsWith('---') && !l.startsWith('+++'));
  return (
    <section className="panel set-review" aria-labelledby="set-review-title" data-testid="settings-review">
      <div className="panel-head">
        <h2 id="set-review-title">Review changes</h2>
        <div className="set-actions">
          <button type="button" className="btn" onClick={onBack} disabled={saving}>
            Back to editing
          </button>
          <button type="button" className="btn primary" onClick={onSave} disabled={saving} data-action="settings-save">
            {saving ? 'Saving…' : 'Save kitbash.toml'}
          </button>
        </div>
      </div>
      <h3 className="set-h3">Effect on installed skills</h3>
      <p className="muted small set-note">
        A policy violation stops install and is reported by doctor and the dashboard; a blocking finding also stops run,
        gate, the Runs tab and evals.
      </p>
      {preview.effects.length === 0 ? (
        <p className="muted small" data-testid="settings-no-effect">
          No installed skill becomes refused or allowed by this change.
        </p>
      ) : (
        <ul className="set-effects" data-testid="settings-effects">
          {preview.effects.map((e) => (
            <li key={e.skill} className={`set-effect ${e.change}`} data-skill={e.skill} data-change={e.change}>
              <strong>{e.skill}</strong> <span className="set-change">{CHANGE_WORD[e.change]}</span>
              <ul className="set-reasons small">
                {e.reasons.map((r) => (
                  <li key={r}>{e.change === 'unblocked' ? <s>{r}</s> : r}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <h3 className="set-h3">kitbash.toml (everything else, comments included, stays as it is)</h3>
      <pre className="set-diff" data-testid="settings-diff">
        {lines.map((l, i) => (
          <div
            key={i}
            className={
              l.startsWith('+') ? 'set-add' : l.startsWith('-') ? 'set-del' : l.startsWith('@@') ? 'set-hunk' : ''
            }
          >
            {l}
          </div>
        ))}
      </pre>
    </section>
  );
}
