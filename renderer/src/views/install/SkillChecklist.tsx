import { useState } from 'react';
import type { SourceSkillView } from '../../../../shared/ipc/channels/adopt';

/**
 * A source that holds many skills: the person ticks the ones to install; each is then
 * reviewed on its own, as any install is. Skills that do not load are shown and cannot be
 * ticked.
 */
export function SkillChecklist({
  source,
  skills,
  onReview,
  onCancel,
}: {
  source: string;
  skills: readonly SourceSkillView[];
  onReview: (sources: string[]) => void;
  onCancel: () => void;
}) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const toggle = (s: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(s)) next.delete(s);
      else next.add(s);
      return next;
    });
  const ordered = skills.filter((s) => picked.has(s.source)).map((s) => s.source);
  return (
    <section className="inst-checklist" aria-label={`Skills in ${source}`}>
      <h2>
        {source} holds {skills.length} skills
      </h2>
      <p className="muted small">Pick the ones to install. Each is reviewed on its own before anything is written.</p>
      <ul className="inst-plain inst-checklist-items">
        {skills.map((s) => (
          <li key={s.source} className={s.problem ? 'inst-checklist-bad' : ''}>
            <label>
              <input
                type="checkbox"
                checked={picked.has(s.source)}
                disabled={s.problem !== undefined}
                onChange={() => toggle(s.source)}
                aria-label={s.name}
              />
              <span className="mono">{s.name}</span>
              <span className="muted small">{s.problem ? `cannot be installed: ${s.problem}` : s.description}</span>
            </label>
            <span className="muted small mono inst-checklist-path">{s.rel}</span>
          </li>
        ))}
      </ul>
      <div className="inst-actions">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn primary" disabled={ordered.length === 0} onClick={() => onReview(ordered)}>
          {ordered.length > 1 ? `Review ${ordered.length} skills, one at a time` : 'Review the selected skill'}
        </button>
      </div>
    </section>
  );
}
