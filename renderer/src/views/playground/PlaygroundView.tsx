import { useQuery } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { SpecSummary } from '../../../../shared/ipc/channels/spec';
import { useApi } from '../../api/context';
import { EmptyState, ErrorState, Spinner } from '../../components/States';
import { navigate } from '../../route';
import { useRefreshOnChange } from '../../use-refresh-on-change';
import { SPEC_FILE } from './spec-file';
import { SpecPlayground } from './SpecPlayground';
import './playground.css';
import { queryKeys } from '../../query-keys';

/** The Playground tab: `#/playground`, `#/playground/<dir>`. */
export function PlaygroundView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const api = useApi();
  // A spec saved in the editor, or a git checkout, is played as it is now on disk.
  useRefreshOnChange(project.root, queryKeys.spec.all(project.root));
  const list = useQuery({
    queryKey: queryKeys.spec.list(project.root),
    queryFn: () => api.spec.list({}),
    retry: false,
  });
  const specs = list.data?.specs ?? [];
  const dir = arg ?? (specs.length === 1 ? specs[0]!.dir : undefined);

  return (
    <main className="page" aria-label="SkillSpec playground">
      <div className="page-head">
        <div>
          <h1>SkillSpec playground</h1>
          <p className="muted small">
            Type what a user might say; the decision and its trace follow as you type. Nothing here runs or writes
            anything.
          </p>
        </div>
        <SpecPicker specs={specs} current={dir} loading={list.isPending} />
      </div>
      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <div className="panel loading-line">
          <Spinner label="Looking for skill.spec.yml files" /> Looking for skill.spec.yml files…
        </div>
      ) : dir === undefined ? (
        specs.length === 0 ? (
          <EmptyState
            title="No SkillSpec in this project"
            actions={
              <a className="btn" href="#/editor" data-action="open-editor">
                Open the editor
              </a>
            }
          >
            None of the installed skills has a <code>{SPEC_FILE}</code>. Add one to a skill under{' '}
            <code>.kitbash/skills/</code> and it appears here.
          </EmptyState>
        ) : (
          <EmptyState title="Pick a skill" icon="⌁">
            {specs.length} installed skills carry a <code>{SPEC_FILE}</code>; choose one above.
          </EmptyState>
        )
      ) : (
        <SpecPlayground key={dir} project={project} dir={dir} />
      )}
    </main>
  );
}

function SpecPicker({
  specs,
  current,
  loading,
}: {
  specs: SpecSummary[];
  current: string | undefined;
  loading: boolean;
}) {
  return (
    <label className="play-picker">
      <span className="muted small">Skill</span>
      <select
        aria-label="Skill with a SkillSpec"
        value={current ?? ''}
        disabled={loading || specs.length === 0}
        onChange={(e) => navigate({ view: 'playground', arg: e.target.value })}
      >
        {current === undefined && <option value="">{loading ? 'Loading…' : 'Choose…'}</option>}
        {current !== undefined && !specs.some((s) => s.dir === current) && <option value={current}>{current}</option>}
        {specs.map((s) => (
          <option key={s.dir} value={s.dir}>
            {s.dir}
          </option>
        ))}
      </select>
    </label>
  );
}
