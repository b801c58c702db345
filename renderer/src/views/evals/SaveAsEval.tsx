import { useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { navigate } from '../../route';
import { saveDraft } from '../editor/drafts';

/**
 * "Save this as an eval" (the Playground's pattern): the trial becomes a draft eval file
 * in the editor, which writes it only when the author saves it there.
 */
export function SaveAsEval({
  project,
  skill,
  name,
  text,
}: {
  project: ProjectRef;
  skill: string;
  name: string;
  text: () => string;
}) {
  const [error, setError] = useState<string | null>(null);
  const file = `evals/${name}.eval.yaml`;
  return (
    <div className="evals-save">
      <button
        type="button"
        className="btn small"
        data-testid="save-as-eval"
        title={`Open ${file} in the editor with this trial's task and what it did as the expectations`}
        onClick={() => {
          if (!saveDraft(project.root, skill, file, text(), null))
            return setError('the browser refused to keep the draft (storage full or disabled)');
          navigate({ view: 'editor', arg: `${skill}/${file}` });
        }}
      >
        Save this as an eval
      </button>
      {error && <span className="small">{error}</span>}
    </div>
  );
}
