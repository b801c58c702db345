import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import { isKsfName } from '../../../../shared/names';
import { useApi } from '../../api/context';
import { navigate } from '../../route';
import { queryKeys } from '../../query-keys';

/** A new manifested skill: main writes `.kitbash/skills/<name>/` and the editor opens it. */
export function NewSkillForm({ project }: { project: ProjectRef }) {
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameProblem =
    name && !isKsfName(name) ? 'lower-case letters, digits and hyphens; starts with a letter; 2–41 characters' : null;
  const descProblem =
    description && (description.trim().length < 10 || description.trim().length > 200)
      ? `10–200 characters (now ${description.trim().length})`
      : null;
  const ready = isKsfName(name) && !descProblem && description.trim().length >= 10;
  return (
    <form
      className="panel ed-new-skill"
      aria-label="New skill"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready || busy) return;
        setBusy(true);
        setError(null);
        api.editor
          .create({ name, description: description.trim() })
          .then((r) => {
            void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(project.root) });
            navigate({ view: 'editor', arg: r.dir });
          })
          .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
          .finally(() => setBusy(false));
      }}
    >
      <h2>New skill</h2>
      <p className="muted small">
        Creates <code>.kitbash/skills/&lt;name&gt;/</code> with a valid <code>skill.toml</code> and a{' '}
        <code>SKILL.md</code> to start from.
      </p>
      <label className="ed-field">
        <span>Name</span>
        <input
          name="name"
          value={name}
          placeholder="changelog-writer"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={nameProblem ? true : undefined}
        />
        {nameProblem ? <span className="ed-field-error">{nameProblem}</span> : null}
      </label>
      <label className="ed-field">
        <span>Description</span>
        <textarea
          name="description"
          rows={3}
          value={description}
          placeholder="What the skill does and when an agent should use it."
          onChange={(e) => setDescription(e.target.value)}
          aria-invalid={descProblem ? true : undefined}
        />
        {descProblem ? <span className="ed-field-error">{descProblem}</span> : null}
      </label>
      {error ? (
        <p className="ed-field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn primary" disabled={!ready || busy}>
        {busy ? 'Creating…' : 'Create skill'}
      </button>
    </form>
  );
}
