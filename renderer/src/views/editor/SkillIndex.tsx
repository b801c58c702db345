import type { Dashboard, ProjectRef } from '../../../../shared/ipc';
import { SkillSearch, useSkillSearch } from '../../components/SkillSearch';
import { VirtualList } from '../../components/VirtualList';
import { useDashboard } from '../../queries';
import { NewSkillForm } from './NewSkillForm';

const searched = (s: Dashboard['skills'][number]) => [s.name, s.description];

/** No skill chosen: the list of skills (searchable once it is long) and the "new skill" form. */
export function SkillIndex({ project }: { project: ProjectRef }) {
  const dash = useDashboard(project.root);
  const skills = dash.data?.skills;
  const { query, setQuery, shown } = useSkillSearch(skills, searched);
  return (
    <main className="ed-index">
      <section className="panel ed-index-list">
        <h1>Edit a skill</h1>
        <p className="muted small">
          Pick a skill of {project.name} to edit, with lint, safety and budget checks as you type.
        </p>
        {dash.isPending ? <p className="muted">Loading skills…</p> : null}
        {skills && skills.length > 8 ? (
          <SkillSearch query={query} onQuery={setQuery} className="ed-skill-search" />
        ) : null}
        {skills ? (
          <VirtualList
            items={shown}
            keyOf={(s) => s.dir}
            estimate={56}
            maxHeight="min(70vh, 760px)"
            className="ed-skill-list"
            label={`Skills (${shown.length} of ${skills.length})`}
          >
            {(s) => (
              <a href={`#/editor/${encodeURIComponent(s.dir)}`} className="ed-skill-link" data-skill={s.dir}>
                <span className="ed-skill-link-name">{s.name}</span>
                <span className="muted small">{s.description}</span>
              </a>
            )}
          </VirtualList>
        ) : null}
        {skills?.length === 0 ? <p className="muted">No skills yet — create the first one.</p> : null}
        {skills && skills.length > 0 && shown.length === 0 ? (
          <p className="muted">No skill matches “{query}”.</p>
        ) : null}
        {skills && skills.length > 8 ? (
          <p className="muted small" data-testid="skill-count">
            {shown.length === skills.length ? `${skills.length} skills` : `${shown.length} of ${skills.length} skills`}
          </p>
        ) : null}
      </section>
      <NewSkillForm project={project} />
    </main>
  );
}
