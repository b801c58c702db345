import type { Dashboard, ProjectRef } from '../../../../shared/ipc';
import { plural } from '../../../../shared/text/format';
import { SkillSearch, useSkillSearch } from '../../components/SkillSearch';
import { VirtualList } from '../../components/VirtualList';
import { useDashboard } from '../../queries';
import { navigate } from '../../route';
import { ErrorLine } from './ErrorLine';

const searched = (s: Dashboard['skills'][number]) => [s.name, s.dir, s.source];

/**
 * The skills installed now, each with its way to update or remove it. The list is virtual
 * and searchable: at 1,000 skills rendering every row (two buttons each) was one main-thread
 * task of 200–350 ms on opening the screen.
 */
export function InstalledList({ project }: { project: ProjectRef }) {
  const dash = useDashboard(project.root);
  const skills = dash.data?.skills;
  const { query, setQuery, shown } = useSkillSearch(skills, searched);
  const total = skills?.length ?? 0;
  return (
    <section className="panel inst-installed" aria-label="Installed skills">
      <div className="panel-head">
        <h2>Installed</h2>
        <span className="muted small" data-testid="installed-count">
          {shown.length === total ? plural(total, 'skill') : `${shown.length} of ${plural(total, 'skill')}`}
        </span>
      </div>
      {dash.isError && <ErrorLine error={dash.error} origin="project.dashboard" />}
      {total > 8 && <SkillSearch query={query} onQuery={setQuery} className="inst-installed-search" />}
      {total > 0 && shown.length === 0 && <p className="muted small">No installed skill matches “{query}”.</p>}
      <VirtualList
        items={shown}
        keyOf={(s) => s.dir}
        estimate={39}
        maxHeight="min(72vh, 780px)"
        className="inst-installed-list"
        label={`Installed skills (${shown.length} of ${total})`}
      >
        {(s) => (
          <div className="inst-installed-row" data-skill={s.dir}>
            <span
              className="inst-installed-name"
              title={`${s.name}${s.version ? ` ${s.version}` : ''}${s.dir === s.name ? '' : ` (${s.dir})`}`}
            >
              {s.name}
              <span className="mono muted small"> {s.version ?? ''}</span>
            </span>
            <span className="inst-installed-actions">
              <button
                type="button"
                className="btn"
                disabled={s.lock === 'unlocked' || s.source === null}
                title={s.source === null ? 'not pinned in kitbash.lock: nothing to refetch' : `refetch ${s.source}`}
                onClick={() => navigate({ view: 'install', arg: `update:${s.dir}` })}
              >
                Update…
              </button>
              <button
                type="button"
                className="btn"
                onClick={() => navigate({ view: 'install', arg: `remove:${s.dir}` })}
              >
                Remove…
              </button>
            </span>
          </div>
        )}
      </VirtualList>
    </section>
  );
}
