import { useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { useDashboard } from '../../queries';
import { NewSkillForm } from './NewSkillForm';

/** No skill chosen: the list of skills (searchable once it is long) and the "new skill" form. */
export function SkillIndex({ project }: { project: ProjectRef }) {
  const dash = useDashboard(project.root);
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = (dash.data?.skills ?? []).filter(
    (s) => !q || s.name.toLowerCase().includes(q) || s.description.toLowerCase().includes(q),
  );
  return (
    <main className="editor-index">
      <section className="panel editor-index-list">
        <h2>Edit a skill</h2>
        <p className="muted small">
          Pick a skill of {project.name} to edit, with lint, safety and budget checks as you type.
        </p>
        {dash.isPending ? <p className="muted">Loading skills…</p> : null}
        {dash.data && dash.data.skills.length > 8 ? (
          <input
            className="filter editor-skill-search"
            type="search"
            placeholder="Search skills"
            aria-label="Search skills"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            spellCheck={false}
          />
        ) : null}
        {dash.data ? (
          <ul className="editor-skill-list">
            {shown.map((s) => (
              <li key={s.dir}>
                <a href={`#/editor/${encodeURIComponent(s.dir)}`} className="editor-skill-link" data-skill={s.dir}>
                  <span className="name">{s.name}</span>
                  <span className="muted small">{s.description}</span>
                </a>
              </li>
            ))}
            {dash.data.skills.length === 0 ? <li className="muted">No skills yet — create the first one.</li> : null}
            {dash.data.skills.length > 0 && shown.length === 0 ? (
              <li className="muted">No skill matches “{query}”.</li>
            ) : null}
          </ul>
        ) : null}
      </section>
      <NewSkillForm project={project} />
    </main>
  );
}
