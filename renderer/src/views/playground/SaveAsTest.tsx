import { useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { Decision } from '../../../../shared/skillspec/decide';
import type { SkillSpec } from '../../../../shared/skillspec/index';
import { Spinner } from '../../components/States';
import { navigate } from '../../route';
import { saveDraft } from '../editor/drafts';
import { SPEC_FILE } from './spec-file';
import { appendScenario, expectationFrom, scenarioName } from './scenario-text';
import type { Shown } from './use-spec';

/** The input and its decision as a new scenario test: an unsaved draft the editor opens, validates and saves. */
export function SaveAsTest({
  project,
  dir,
  file,
  spec,
  input,
  decision,
}: {
  project: ProjectRef;
  dir: string;
  file: Shown;
  spec: SkillSpec;
  input: string;
  decision: Decision | null;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const suggested = scenarioName(
    input,
    spec.tests.map((t) => t.name),
  );
  const [busy, setBusy] = useState(false);
  const save = () => {
    setError(null);
    if (!decision || decision.input !== input)
      return setError('the decision is still catching up with the input — try again');
    const chosen = name.trim() || suggested;
    setBusy(true);
    // Re-parsing and re-testing a large spec takes a moment: show it.
    setTimeout(() => {
      try {
        const r = appendScenario(file.text, { name: chosen, input, expect: expectationFrom(decision) });
        if (!r.ok) return setError(r.message);
        if (!saveDraft(project.root, dir, SPEC_FILE, r.text, file.draft ? file.draft.base : file.text))
          return setError('the browser refused to keep the draft (storage full or disabled) — nothing was changed');
        navigate({ view: 'editor', arg: dir });
      } catch (e) {
        setError(`${e instanceof Error ? e.message : String(e)} (appendScenario)`);
      } finally {
        setBusy(false);
      }
    }, 16);
  };
  return (
    <div className="play-save">
      <h3>Save as scenario test</h3>
      <div className="play-save-row">
        <input
          className="play-name"
          aria-label="Test name"
          placeholder={suggested}
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={input.trim() === ''}
        />
        <button type="button" className="btn" onClick={save} disabled={input.trim() === '' || busy}>
          {busy && <Spinner label="Building the new test" />}
          Open in editor as a new test
        </button>
      </div>
      <p className="muted small">
        Adds this input with the decision above as its expect block to {SPEC_FILE}, as an unsaved change in the editor,
        where it is validated before you save it.
      </p>
      {error && (
        <div className="inline-error" role="alert">
          Not added: {error}
        </div>
      )}
    </div>
  );
}
