import { formatTokens } from '../../format';
import { Word } from '../../glossary';
import { navigate } from '../../route';
import { chartRows, legendSkills, othersCount, skillColor, TOP_SKILLS, type CostPanelProps } from './chart';
import { formatCount, plural } from '../../../../shared/text/format';

const tok = (n: number): string => `${formatCount(n)} tok`;

/**
 * One bar per target: its costliest skills as segments, the rest as one "others" segment;
 * a legend of the skills drawn (click one for its breakdown).
 */
export function CostChart({ skills, targets, active, selected }: CostPanelProps) {
  const rows = chartRows(
    skills,
    targets.map((t) => t.id),
    selected ? { pin: selected } : {},
  );
  const max = Math.max(1, ...rows.map((r) => r.total));
  const legend = legendSkills(rows);
  const others = othersCount(skills, rows);
  return (
    <>
      <ul className="cost-chart" aria-label="Standing cost per target, by skill">
        {rows.map((r, i) => {
          const t = targets[i]!;
          const parts = r.segments.map((s) => `${s.skill} ${s.tokens}`);
          if (r.others.count) parts.push(`${plural(r.others.count, 'other')} ${r.others.tokens}`);
          return (
            <li
              key={t.id}
              className={`cost-row ${active.includes(t.id) ? 'active' : ''}`}
              data-target={t.id}
              data-total={r.total}
            >
              <div className="cost-label">
                <span className="bar-name">{t.id}</span>
                <span className={`pill ${t.loading}`}>
                  <Word word={t.loading} />
                </span>
              </div>
              <div
                className="cost-track"
                role="img"
                aria-label={`${t.id}: ${r.total} tokens per session — ${parts.join(', ')}`}
              >
                {r.segments.map((s) => (
                  <span
                    key={s.skill}
                    className={`cost-seg ${selected && selected !== s.skill ? 'faded' : ''}`}
                    style={{ width: `${(s.tokens / max) * 100}%`, background: skillColor(s.skill) }}
                    title={`${s.skill}: ${tok(s.tokens)} on ${t.id}`}
                    data-skill={s.skill}
                    data-tokens={s.tokens}
                  />
                ))}
                {r.others.count > 0 && (
                  <span
                    className={`cost-seg others ${selected ? 'faded' : ''}`}
                    style={{ width: `${(r.others.tokens / max) * 100}%` }}
                    title={`${plural(r.others.count, 'other skill')}: ${tok(r.others.tokens)} on ${t.id}`}
                    data-others={r.others.count}
                    data-tokens={r.others.tokens}
                  />
                )}
              </div>
              <div className="bar-value">{formatTokens(r.total)} tok</div>
            </li>
          );
        })}
      </ul>
      <div className="cost-legend" role="group" aria-label="Skills">
        {legend.map((s) => (
          <button
            key={s}
            type="button"
            className={`cost-legend-item ${selected === s ? 'on' : ''}`}
            onClick={() => navigate({ view: 'costs', ...(selected === s ? {} : { arg: s }) })}
            aria-pressed={selected === s}
          >
            <span className="cost-swatch" style={{ background: skillColor(s) }} />
            {s}
          </button>
        ))}
        {others > 0 && (
          <span className="cost-legend-item others" data-testid="legend-others">
            <span className="cost-swatch others" />
            {plural(others, 'other')}
          </span>
        )}
      </div>
      {others > 0 && (
        <p className="muted small chart-note">
          Each bar draws its {TOP_SKILLS} costliest skills; the grey end is every other skill together. The table below
          lists all {skills.length}.
        </p>
      )}
    </>
  );
}
