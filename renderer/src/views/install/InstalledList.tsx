import type { ProjectRef } from '../../../../shared/ipc';
import { useDashboard } from '../../queries';
import { navigate } from '../../route';
import { ErrorLine } from './ErrorLine';

/** The skills installed now, each with its way to update or remove it. */
export function InstalledList({ project }: { project: ProjectRef }) {
  const dash = useDashboard(project.root);
  const skills = dash.data?.skills ?? [];
  return (
    <section className="panel inst-installed" aria-label="Installed skills">
      <div className="panel-head">
        <h2>Installed</h2>
        <span className="muted small">{skills.length} skill(s)</span>
      </div>
      {dash.isError && <ErrorLine error={dash.error} origin="project.dashboard" />}
      <ul className="inst-plain">
        {skills.map((s) => (
          <li key={s.dir} className="inst-installed-row" data-skill={s.dir}>
            <span className="inst-installed-name">
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
          </li>
        ))}
      </ul>
    </section>
  );
}
