import { plural } from '../../../../shared/text/format';
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { SkillSearch } from '../../components/SkillSearch';
import { sizedAfterLayout } from '../../components/virtual-rect';
import { formatTokens } from '../../format';
import { navigate } from '../../route';
import type { SkillCost } from '../../../../shared/ipc/channels/reports';
import type { CostPanelProps } from './chart';

const ROW_HEIGHT = 34;
type Sort = { by: 'skill' | string; dir: 1 | -1 };

function costOf(s: SkillCost, t: string): number {
  return s.perTarget[t] ?? -1;
}

/**
 * Standing tokens per skill per target, every skill: virtualised rows, the skill column and
 * the header stay in view while the table scrolls either way, and a column sorts on click.
 */
export function CostTable({ skills, targets, active, selected }: CostPanelProps) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<Sort>({ by: 'skill', dir: 1 });
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = q ? skills.filter((s) => s.skill.toLowerCase().includes(q)) : [...skills];
    return sort.by === 'skill'
      ? sort.dir === 1
        ? list
        : list.reverse()
      : list.sort((a, b) => (costOf(a, sort.by) - costOf(b, sort.by)) * sort.dir || (a.skill < b.skill ? -1 : 1));
  }, [skills, query, sort]);
  const totals = targets.map((t) => skills.reduce((n, s) => n + (s.perTarget[t.id] ?? 0), 0));

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // The scroller's max-height in costs.css.
    ...sizedAfterLayout(560),
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  const header = (by: string, label: string, className = '') => {
    const on = sort.by === by;
    return (
      <th
        key={by}
        scope="col"
        className={className}
        aria-sort={on ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
      >
        <button
          type="button"
          className="cost-th-sort"
          onClick={() => setSort({ by, dir: on ? (-sort.dir as 1 | -1) : by === 'skill' ? 1 : -1 })}
        >
          {label}
          <span className="sort-mark" aria-hidden="true">
            {on ? (sort.dir === 1 ? '▲' : '▼') : ''}
          </span>
        </button>
      </th>
    );
  };

  return (
    <section className="panel" aria-labelledby="per-skill-title">
      <div className="panel-head">
        <div>
          <h2 id="per-skill-title">Per skill</h2>
          <span className="muted small">standing tokens per session · click a skill for its breakdown</span>
        </div>
        <SkillSearch query={query} onQuery={setQuery} />
      </div>
      <div className="cost-table-scroll" ref={scrollRef} tabIndex={0} aria-label="Per-skill costs, scrollable">
        <table className="cost-table" aria-rowcount={rows.length + 2}>
          <thead>
            <tr>
              {header('skill', 'skill')}
              {targets.map((t) => header(t.id, t.id, active.includes(t.id) ? 'active' : ''))}
            </tr>
          </thead>
          <tbody>
            {before > 0 && (
              <tr aria-hidden="true" className="spacer">
                <td colSpan={targets.length + 1} style={{ height: before }} />
              </tr>
            )}
            {items.map((v) => {
              const s = rows[v.index]!;
              const rowMax = Math.max(1, ...targets.map((t) => s.perTarget[t.id] ?? 0));
              return (
                <tr
                  key={s.skill}
                  data-skill={s.skill}
                  aria-rowindex={v.index + 2}
                  className={selected === s.skill ? 'on' : ''}
                  style={{ height: ROW_HEIGHT }}
                >
                  <th scope="row">
                    <button type="button" className="link" onClick={() => navigate({ view: 'costs', arg: s.skill })}>
                      {s.skill}
                    </button>
                    <span className={`pill ${s.disclosure}`}>{s.disclosure}</span>
                  </th>
                  {targets.map((t) => {
                    const v = s.perTarget[t.id];
                    const left = s.notWritten?.[t.id];
                    return (
                      <td
                        key={t.id}
                        data-target={t.id}
                        data-tokens={v ?? ''}
                        title={left}
                        style={{ ['--heat' as string]: v === null || v === undefined ? 0 : v / rowMax }}
                      >
                        {left ? (
                          <span className="cost-notwritten">not written</span>
                        ) : v === null || v === undefined ? (
                          'n/a'
                        ) : (
                          formatTokens(v)
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {after > 0 && (
              <tr aria-hidden="true" className="spacer">
                <td colSpan={targets.length + 1} style={{ height: after }} />
              </tr>
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">project</th>
              {targets.map((t, i) => (
                <td key={t.id} data-target={t.id}>
                  {formatTokens(totals[i])}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
        {rows.length === 0 && (
          <p className="muted table-empty">
            No skill matches “{query}”.{' '}
            <button type="button" className="link" onClick={() => setQuery('')}>
              Clear the search
            </button>
          </p>
        )}
      </div>
      <div className="table-foot muted small">
        {rows.length === skills.length
          ? plural(skills.length, 'skill')
          : `${rows.length} of ${plural(skills.length, 'skill')}`}
      </div>
    </section>
  );
}
