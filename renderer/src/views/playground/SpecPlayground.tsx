import { useDeferredValue, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import { IpcError } from '../../../../shared/ipc/errors';
import { useApi } from '../../api/context';
import { EmptyState, ErrorState, Spinner } from '../../components/States';
import { navigate } from '../../route';
import { formatDateTime } from '../../format';
import { SPEC_FILE } from './spec-file';
import { Play } from './Play';
import { useParsedSpec, useSpecDraft, useStoredInput, type Shown } from './use-spec';
import { ValidationBanner } from './ValidationBanner';
import { queryKeys } from '../../query-keys';

/** One skill's spec: loaded (or its unsaved draft), validated, then played. */
export function SpecPlayground({ project, dir }: { project: ProjectRef; dir: string }) {
  const api = useApi();
  const file = useQuery({
    queryKey: queryKeys.spec.load(project.root, dir),
    queryFn: () => api.spec.load({ dir }),
    retry: false,
  });
  const [input, setInput] = useStoredInput(project.root, dir);
  const deferred = useDeferredValue(input);

  const draft = useSpecDraft(project.root, dir);
  const [playDraft, setPlayDraft] = useState(false);
  const hasDraft = draft !== null && file.data !== undefined && draft.text !== file.data.text;
  const shown = useMemo<Shown | undefined>(
    () => file.data && (playDraft && hasDraft ? { ...file.data, text: draft.text, draft } : file.data),
    [file.data, playDraft, hasDraft, draft],
  );
  const parsed = useParsedSpec(shown);

  if (file.isError) {
    if (file.error instanceof IpcError && file.error.code === 'not-found') {
      return (
        <EmptyState title={`No ${SPEC_FILE} in ${dir}`}>
          {file.error.message} <span className="muted small">(spec.load)</span>
        </EmptyState>
      );
    }
    return <ErrorState error={file.error} onRetry={() => void file.refetch()} />;
  }
  if (file.isPending || !parsed) {
    return (
      <div className="panel loading-line">
        <Spinner label="Loading the spec" /> Loading and validating{' '}
        <code>
          {dir}/{SPEC_FILE}
        </code>
        …
      </div>
    );
  }
  // While a newer version of the file is parsed, the previous parse stays on screen.
  const current = parsed.value;
  const shownFile = parsed.of;
  return (
    <>
      {hasDraft && (
        <label className="play-draft small">
          <input type="checkbox" checked={playDraft} onChange={(e) => setPlayDraft(e.target.checked)} /> Play the
          unsaved draft from the editor ({formatDateTime(draft.at, { seconds: true })}) instead of the file on disk
        </label>
      )}
      <ValidationBanner
        file={shownFile}
        parsed={current}
        refetching={file.isFetching || (parsed.of !== file.data && !parsed.of.draft)}
      />
      {current.ok ? (
        <Play
          project={project}
          dir={dir}
          file={shownFile}
          spec={current.spec}
          input={input}
          deferred={deferred}
          setInput={setInput}
        />
      ) : (
        <section className="panel play-input" aria-label="Input">
          <div className="panel-head">
            <h2>Input</h2>
            <button type="button" className="btn" onClick={() => navigate({ view: 'editor', arg: dir })}>
              Fix {SPEC_FILE} in the editor
            </button>
          </div>
          <textarea
            className="play-textarea"
            aria-label="What the user says"
            value={input}
            spellCheck={false}
            onChange={(e) => setInput(e.target.value)}
          />
          <p className="muted small">Your input is kept; the decision comes back as soon as the spec loads again.</p>
        </section>
      )}
    </>
  );
}
