import { plural } from '../../../shared/text/format';
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Dashboard, SkillRow } from '../../../shared/ipc';
import { formatTokens } from '../format';
import { Term, Word } from '../glossary';
import { sizedAfterLayout } from './virtual-rect';
import './dash-table.css';

type SortKey = 'name' | 'version' | 'source' | 'budget' | 'lint' | 'lock' | 'mode' | `standing:${string}`;
type LintFilter = 'all' | 'fail' | 'warn' | 'pass';

const ROW_HEIGHT = 56;
const MAX_BODY_HEIGHT = 560;
const GAP = 12;
const PAD = 12;

/**
 * Column widths: wide enough that no number, budget or verdict is cut (text columns take
 * the rest). Below their sum the table scrolls sideways with the skill column in view.
 */
function columnsOf(targets: readonly string[]): { template: string; minWidth: number } {
  const cols: [min: number, track: string][] = [
    [200, 'minmax(200px, 2.4fr)'],
    [64, '64px'],
    [100, 'minmax(100px, 1.1fr)'],
    [156, '156px'],
    ...targets.map((): [number, string] => [72, 'minmax(72px, 0.6fr)']),
    [124, '124px'],
    [70, '70px'],
    [56, '56px'],
    [170, 'minmax(170px, 1.4fr)'],
  ];
  return {
    template: cols.map((c) => c[1]).join(' '),
    minWidth: cols.reduce((n, c) => n + c[0], 0) + GAP * (cols.length - 1) + PAD * 2,
  };
}
const LINT_RANK = { fail: 0, warn: 1, pass: 2 } as const;
const LOCK_RANK = { drift: 0, missing: 1, unlocked: 2, unknown: 3, locked: 4 } as const;

// Versions compare with numeric runs (1.10 after 1.9). One collator for every comparison:
// `localeCompare` with options builds a new one per call (tens of µs; a sort of 1,000 rows
// makes about 10,000 calls), and it is made on the first version sort, not when the page loads.
let versionCollator: Intl.Collator | undefined;
function compareVersions(a: string, b: string): number {
  return (versionCollator ??= new Intl.Collator(undefined, { numeric: true })).compare(a, b);
}

function compare(a: SkillRow, b: SkillRow, key: SortKey): number {
  const num = (x: number | null | undefined) => (x === null || x === undefined ? -1 : x);
  switch (key) {
    case 'name':
      return a.name.localeCompare(b.name);
    case 'version':
      return compareVersions(a.version ?? '', b.version ?? '');
    case 'source':
      return (a.source ?? '').localeCompare(b.source ?? '');
    case 'budget':
      return num(a.bodyTokens) - num(b.bodyTokens);
    case 'lint':
      return (
        LINT_RANK[a.lint.status] - LINT_RANK[b.lint.status] ||
        b.lint.failures - a.lint.failures ||
        b.lint.warnings - a.lint.warnings
      );
    case 'lock':
      return LOCK_RANK[a.lock] - LOCK_RANK[b.lock];
    case 'mode':
      return (a.mode ?? '').localeCompare(b.mode ?? '');
    default: {
      const t = key.slice('standing:'.length);
      return num(a.standing[t]) - num(b.standing[t]);
    }
  }
}

export function SkillsTable({
  data,
  selected,
  onSelect,
}: {
  data: Dashboard;
  selected: string | null;
  onSelect: (dir: string) => void;
}) {
  const [query, setQuery] = useState('');
  const [lint, setLint] = useState<LintFilter>('all');
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'name', dir: 1 });
  const targets = data.standingByTarget.map((t) => t.target);

  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    const filtered = data.skills.filter(
      (s) =>
        (lint === 'all' || s.lint.status === lint) &&
        (!q ||
          s.name.toLowerCase().includes(q) ||
          s.description.toLowerCase().includes(q) ||
          (s.source ?? '').toLowerCase().includes(q) ||
          s.permissions.tools.some((t) => t.toLowerCase().includes(q))),
    );
    return filtered.sort((a, b) => compare(a, b, sort.key) * sort.dir || a.name.localeCompare(b.name));
  }, [data.skills, query, lint, sort]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const bodyHeight = Math.min(rows.length * ROW_HEIGHT, MAX_BODY_HEIGHT);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    ...sizedAfterLayout(bodyHeight),
  });

  const counts = useMemo(() => {
    const c = { all: data.skills.length, fail: 0, warn: 0, pass: 0 };
    for (const s of data.skills) c[s.lint.status]++;
    return c;
  }, [data.skills]);

  const { template: columns, minWidth } = columnsOf(targets);
  const header = (key: SortKey, label: string, extraClass = '') => {
    const active = sort.key === key;
    return (
      <div
        role="columnheader"
        className={`dash-th ${extraClass}`}
        aria-sort={active ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
      >
        <button
          type="button"
          onClick={() =>
            setSort({
              key,
              dir: active ? (-sort.dir as 1 | -1) : key === 'budget' || key.startsWith('standing:') ? -1 : 1,
            })
          }
        >
          {label}
          <span className="sort-mark" aria-hidden="true">
            {active ? (sort.dir === 1 ? '▲' : '▼') : ''}
          </span>
        </button>
      </div>
    );
  };

  return (
    <section className="panel" aria-labelledby="skills-title">
      <div className="panel-head">
        <h2 id="skills-title">Installed skills</h2>
        <div className="table-tools">
          <div className="segmented" role="group" aria-label="Filter by lint status">
            {(['all', 'fail', 'warn', 'pass'] as const).map((f) => (
              <button
                key={f}
                type="button"
                className={lint === f ? 'on' : ''}
                aria-pressed={lint === f}
                onClick={() => setLint(f)}
              >
                {f === 'all' ? 'All' : f === 'fail' ? 'Failing' : f === 'warn' ? 'Warnings' : 'Clean'}{' '}
                <span className="segmented-count">{counts[f]}</span>
              </button>
            ))}
          </div>
          <input
            type="search"
            className="filter"
            placeholder="Filter by name, description, source, tool…"
            aria-label="Filter skills"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      </div>

      <div className="dash-table" role="table" aria-label="Installed skills" aria-rowcount={rows.length + 1}>
        <div className="dash-thead" role="rowgroup" ref={headRef}>
          <div className="dash-tr head" role="row" style={{ gridTemplateColumns: columns, minWidth }}>
            {header('name', 'Skill')}
            {header('version', 'Version')}
            {header('source', 'Source')}
            {header('budget', 'Body / budget')}
            {targets.map((t) => (
              <div key={t} className="dash-th-wrap" title={`standing tokens per session on ${t}`}>
                {header(`standing:${t}`, t, 'num')}
              </div>
            ))}
            {header('lint', 'Lint')}
            {header('lock', 'Lock')}
            {header('mode', 'Mode')}
            <div role="columnheader" className="dash-th">
              Permissions
            </div>
          </div>
        </div>
        {rows.length === 0 ? (
          <div className="table-empty">
            {data.skills.length === 0 ? 'No skills installed.' : 'No skill matches this filter.'}{' '}
            {data.skills.length > 0 && (
              <button
                type="button"
                className="link"
                onClick={() => {
                  setQuery('');
                  setLint('all');
                }}
              >
                Clear filters
              </button>
            )}
          </div>
        ) : (
          <div
            className="dash-tbody"
            role="rowgroup"
            ref={scrollRef}
            // The header scrolls sideways with the rows (it has no scrollbar of its own).
            onScroll={(e) => headRef.current && (headRef.current.scrollLeft = e.currentTarget.scrollLeft)}
            style={{ height: bodyHeight }}
          >
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth }}>
              {virtualizer.getVirtualItems().map((v) => {
                const s = rows[v.index]!;
                return (
                  <div
                    key={s.dir}
                    role="row"
                    aria-rowindex={v.index + 2}
                    data-skill={s.dir}
                    className={`dash-tr ${selected === s.dir ? 'selected' : ''}`}
                    style={{
                      gridTemplateColumns: columns,
                      minWidth,
                      transform: `translateY(${v.start}px)`,
                      height: ROW_HEIGHT,
                    }}
                    onClick={() => onSelect(s.dir)}
                  >
                    <div role="cell" className="dash-td dash-name-cell">
                      <div className="dash-name-line">
                        <button
                          type="button"
                          className="skill-name link"
                          title={s.name}
                          onClick={(e) => (e.stopPropagation(), onSelect(s.dir))}
                        >
                          {s.name}
                        </button>
                        {!s.manifested && (
                          <span className="tag subtle">
                            <Term term="bare" plain />
                          </span>
                        )}
                      </div>
                      <div className="dash-desc" title={s.description}>
                        {s.description || <em>no description</em>}
                      </div>
                    </div>
                    <div role="cell" className="dash-td mono" title={s.version ?? undefined}>
                      {s.version ?? '—'}
                    </div>
                    <div role="cell" className="dash-td dash-source" title={s.source ?? 'local (not in the lock)'}>
                      {s.source ?? <span className="muted">local</span>}
                    </div>
                    <div role="cell" className="dash-td">
                      <BudgetMeter used={s.bodyTokens} budget={s.budget} />
                    </div>
                    {targets.map((t) => (
                      <div key={t} role="cell" className="dash-td num mono" data-standing={t}>
                        {formatTokens(s.standing[t])}
                      </div>
                    ))}
                    <div role="cell" className="dash-td">
                      <LintBadge row={s} />
                    </div>
                    <div role="cell" className="dash-td">
                      <span className={`dash-lock ${s.lock}`}>
                        {s.lock === 'drift' ? (
                          <Term term="drift" plain />
                        ) : s.lock === 'locked' ? (
                          <Term term="pinned" plain>
                            locked
                          </Term>
                        ) : (
                          s.lock
                        )}
                      </span>
                      {s.signedBy !== null && (
                        <span className="dash-signed" data-signed-by={s.signedBy} title={`signed by ${s.signedBy}`}>
                          signed
                        </span>
                      )}
                    </div>
                    <div role="cell" className="dash-td">
                      {s.mode ? (
                        <span className={`dash-mode ${s.mode}`}>
                          <Word word={s.mode} plain />
                        </span>
                      ) : (
                        '—'
                      )}
                    </div>
                    <div role="cell" className="dash-td">
                      <Permissions row={s} />
                    </div>
                  </div>
                );
              })}
            </div>
          </div>
        )}
      </div>
      <div className="table-foot muted small">
        {rows.length === data.skills.length
          ? plural(rows.length, 'skill')
          : `${rows.length} of ${plural(data.skills.length, 'skill')}`}{' '}
        · standing columns are tokens per session
      </div>
    </section>
  );
}

function BudgetMeter({ used, budget }: { used: number | null; budget: number | null }) {
  if (used === null || budget === null) return <span className="muted">—</span>;
  const ratio = used / Math.max(1, budget);
  const level = ratio > 1 ? 'over' : ratio > 0.8 ? 'near' : 'ok';
  return (
    <div className={`dash-meter ${level}`} title={`${used} of ${budget} tokens`}>
      <div className="dash-meter-track">
        <div className="dash-meter-fill" style={{ width: `${Math.min(100, ratio * 100)}%` }} />
      </div>
      <span className="dash-meter-text mono">
        {formatTokens(used)}/{formatTokens(budget)}
      </span>
    </div>
  );
}

/** The row's verdict in the same words as the drawer, the Runs tab and the review (one computation). */
export function verdictWords(lint: SkillRow['lint']): string {
  const parts = [plural(lint.failures, 'failure'), plural(lint.warnings, 'warning')];
  if (lint.blocking) parts.push(`${lint.blocking} blocking — refused by install, run and gate`);
  if (lint.accepted) parts.push(`${lint.accepted} accepted by exception`);
  return parts.join(', ');
}

function LintBadge({ row }: { row: SkillRow }) {
  const { status, failures, warnings, blocking, accepted } = row.lint;
  const label =
    status === 'pass'
      ? 'clean'
      : status === 'fail'
        ? `${failures} fail${blocking ? ' · blocked' : ''}`
        : `${warnings} warn`;
  return (
    <span
      className={`badge ${status}`}
      title={verdictWords(row.lint)}
      data-verdict={`${failures}/${warnings}/${blocking}/${accepted}`}
    >
      {status === 'pass' ? '✓' : status === 'fail' ? '✕' : '!'} {label}
      {accepted > 0 && <span className="muted"> · {accepted} accepted</span>}
    </span>
  );
}

function Permissions({ row }: { row: SkillRow }) {
  const { tools, network, write } = row.permissions;
  const shell = tools.filter((t) => t.startsWith('bash'));
  return (
    <span className="dash-perms">
      {tools.length === 0 && !network && !write && <span className="dash-perm none">none</span>}
      {tools.length > 0 && (
        <span className="dash-perm" title={tools.join(', ')}>
          {tools.length} tool{tools.length === 1 ? '' : 's'}
        </span>
      )}
      {shell.length > 0 && (
        <span className="dash-perm shell" title={shell.join(', ')}>
          shell
        </span>
      )}
      {network && <span className="dash-perm net">network</span>}
      {write && <span className="dash-perm write">write</span>}
    </span>
  );
}
