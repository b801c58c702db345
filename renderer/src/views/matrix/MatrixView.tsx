import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { CompileSnapshot } from '../../../../shared/ipc/channels/compile';
import { TARGETS } from '../../../../shared/targets/registry';
import type { CellStatus } from '../../../../shared/targets';
import { AddSkillActions, EmptyState, ErrorState } from '../../components/States';
import { formatTokens } from '../../format';
import { navigate } from '../../route';
import { activeTargets, explainCell, snapshotMatrix, type Cell } from '../previews/live';
import { useCompileSnapshot } from '../previews/queries';
import '../previews/previews.css';
import './matrix.css';
import { Word } from '../../glossary';

type StatusFilter = 'all' | CellStatus;
type TargetFilter = 'all' | 'active';

const STATUS_WORD: Record<CellStatus, string> = { full: 'Full', degraded: 'Degraded', unsupported: 'Unsupported' };
const MARK: Record<CellStatus, string> = { full: '✓', degraded: '◐', unsupported: '✕' };

/** `#/matrix/<skill>@<target>` opens that cell's explanation. */
function parseArg(arg: string | undefined): { skill: string; target: string } | null {
  const m = arg ? /^([^@]+)@([a-z-]+)$/.exec(arg) : null;
  return m ? { skill: m[1]!, target: m[2]! } : null;
}

/** Skills × targets: does each agent get the skill as authored, a weaker version, or nothing? */
export function MatrixView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const snapshot = useCompileSnapshot(project.root);
  if (snapshot.isPending)
    return (
      <main className="dashboard">
        <p className="muted">Reading the project…</p>
      </main>
    );
  if (snapshot.isError)
    return (
      <main className="dashboard">
        <ErrorState error={snapshot.error} onRetry={() => void snapshot.refetch()} />
      </main>
    );
  return <Matrix snap={snapshot.data} open={parseArg(arg)} />;
}

function Matrix({ snap, open }: { snap: CompileSnapshot; open: { skill: string; target: string } | null }) {
  const { matrix, failures, dirs } = useMemo(() => snapshotMatrix(snap), [snap]);
  const active = useMemo(() => activeTargets(snap), [snap]);
  const [status, setStatus] = useState<StatusFilter>('all');
  const [targetFilter, setTargetFilter] = useState<TargetFilter | string>('all');
  const [focus, setFocus] = useState<{ r: number; c: number }>({ r: 0, c: 0 });
  const [hover, setHover] = useState<{ skill: string; target: string } | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);

  const byKey = useMemo(() => new Map(matrix.cells.map((c) => [`${c.skill}\0${c.target}`, c])), [matrix]);
  const targets = matrix.targets.filter((t) =>
    targetFilter === 'all' ? true : targetFilter === 'active' ? active.targets.includes(t) : t === targetFilter,
  );
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const skills = matrix.skills.filter(
    (s) =>
      (!q || s.toLowerCase().includes(q)) &&
      (status === 'all' || targets.some((t) => byKey.get(`${s}\0${t}`)?.status === status)),
  );
  const counts = useMemo(() => {
    const n = { full: 0, degraded: 0, unsupported: 0 };
    for (const c of matrix.cells) if (targets.includes(c.target)) n[c.status]++;
    return n;
  }, [matrix, targets]);

  const r = Math.min(focus.r, Math.max(0, skills.length - 1));
  const c = Math.min(focus.c, Math.max(0, targets.length - 1));
  const moveTo = (nr: number, nc: number): void => {
    const rr = Math.max(0, Math.min(skills.length - 1, nr));
    const cc = Math.max(0, Math.min(targets.length - 1, nc));
    setFocus({ r: rr, c: cc });
    // Focus now (the cell exists; only its tabindex changes), so fast key repeats never act on a stale cell.
    gridRef.current?.querySelector<HTMLElement>(`[data-r="${rr}"][data-c="${cc}"]`)?.focus();
  };
  const onKey = (e: KeyboardEvent, rr: number, cc: number, cell: Cell | undefined): void => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => moveTo(rr, cc + 1),
      ArrowLeft: () => moveTo(rr, cc - 1),
      ArrowDown: () => moveTo(rr + 1, cc),
      ArrowUp: () => moveTo(rr - 1, cc),
      Home: () => (e.ctrlKey ? moveTo(0, 0) : moveTo(rr, 0)),
      End: () => (e.ctrlKey ? moveTo(skills.length - 1, targets.length - 1) : moveTo(rr, targets.length - 1)),
      PageDown: () => moveTo(skills.length - 1, cc),
      PageUp: () => moveTo(0, cc),
      Enter: () => cell && openCell(cell),
      ' ': () => cell && openCell(cell),
    };
    const k = keys[e.key];
    if (!k) return;
    e.preventDefault();
    k();
  };
  const openCell = (cell: Cell): void => navigate({ view: 'matrix', arg: `${cell.skill}@${cell.target}` });

  if (matrix.skills.length === 0 && failures.length === 0) {
    return (
      <main className="dashboard">
        <EmptyState title="No skills yet" actions={<AddSkillActions />}>
          Install or create a skill to see how each agent receives it.
        </EmptyState>
      </main>
    );
  }

  const tip = hover ? byKey.get(`${hover.skill}\0${hover.target}`) : undefined;
  return (
    <main className="dashboard matrix-view">
      <section className="panel" aria-labelledby="matrix-title">
        <div className="panel-head">
          <div>
            <h2 id="matrix-title">Compatibility matrix</h2>
            <p className="muted small matrix-sub">
              How each agent receives each skill. <b>Full</b>: as authored · <b>Degraded</b>: a weaker version (missing
              capability, eager loading…) · <b>Unsupported</b>: the agent drops or never triggers it.
            </p>
          </div>
          <div className="table-tools">
            <input
              className="filter"
              type="search"
              placeholder="Search skills"
              aria-label="Search skills"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              spellCheck={false}
            />
            <div className="segmented" role="group" aria-label="Filter by status">
              {(['all', 'full', 'degraded', 'unsupported'] as const).map((s) => (
                <button
                  key={s}
                  type="button"
                  className={status === s ? 'on' : ''}
                  aria-pressed={status === s}
                  onClick={() => setStatus(s)}
                  data-status-filter={s}
                >
                  {s === 'all' ? 'All' : STATUS_WORD[s]}
                  {s !== 'all' && <span className="count">{counts[s]}</span>}
                </button>
              ))}
            </div>
            <label className="target-select">
              <span className="muted small">Targets</span>
              <select
                value={targetFilter}
                onChange={(e) => setTargetFilter(e.target.value)}
                aria-label="Filter by target"
              >
                <option value="all">All {matrix.targets.length}</option>
                <option value="active">Active in this project ({active.targets.length})</option>
                {matrix.targets.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
        {failures.length > 0 && (
          <div className="banner warn" role="status">
            {failures.map((f) => (
              <div key={f.name}>
                <b>{f.name}</b> does not load, so no agent gets it: {f.message}
              </div>
            ))}
          </div>
        )}
        {skills.length === 0 ? (
          <p className="muted empty-panel" data-testid="matrix-empty">
            No skill has a {status} cell on the selected targets.
          </p>
        ) : (
          <div className="matrix-scroll">
            <div
              className={`matrix-grid ${targets.length > 7 ? 'compact' : ''}`}
              role="grid"
              aria-label="Compatibility matrix"
              aria-rowcount={skills.length + 1}
              aria-colcount={targets.length + 1}
              ref={gridRef}
              style={{
                gridTemplateColumns: `minmax(150px, 200px) repeat(${targets.length}, minmax(${targets.length > 7 ? 72 : 120}px, 1fr))`,
              }}
            >
              <div role="row" className="mrow head">
                <div role="columnheader" className="mcorner">
                  skill \ target
                </div>
                {targets.map((t) => {
                  const def = TARGETS.find((d) => d.id === t)!;
                  return (
                    <div
                      key={t}
                      role="columnheader"
                      className={`mhead ${active.targets.includes(t) ? 'active' : ''}`}
                      title={`${def.agent} — ${def.loading}${active.targets.includes(t) ? ' — active in this project' : ''}`}
                      data-target={t}
                    >
                      <span className="mhead-id">{t}</span>
                      <span className={`pill ${def.loading}`}>
                        <Word word={def.loading} plain />
                      </span>
                    </div>
                  );
                })}
              </div>
              {skills.map((s, ri) => (
                <div key={s} role="row" className="mrow" data-skill={s}>
                  <div role="rowheader" className="mskill">
                    {s}
                  </div>
                  {targets.map((t, ci) => {
                    const cell = byKey.get(`${s}\0${t}`);
                    const st = cell?.status ?? 'unsupported';
                    const dim = status !== 'all' && st !== status;
                    const isOpen = open?.skill === s && open.target === t;
                    const tipId = hover?.skill === s && hover.target === t ? 'matrix-tip' : undefined;
                    return (
                      <div
                        key={t}
                        role="gridcell"
                        tabIndex={ri === r && ci === c ? 0 : -1}
                        data-r={ri}
                        data-c={ci}
                        data-target={t}
                        data-status={st}
                        aria-selected={isOpen}
                        // Starts with the visible words (status, reason count) so speech input can name the cell.
                        aria-label={`${STATUS_WORD[st]}${cell?.reasons.length ? ` ${cell.reasons.length}` : ''}: ${s} on ${t}${cell?.reasons.length ? ` — ${cell.reasons.map((x) => x.message).join('; ')}` : ''}`}
                        aria-describedby={tipId}
                        className={`mcell ${st} ${dim ? 'dim' : ''} ${isOpen ? 'open' : ''}`}
                        onClick={() => {
                          setFocus({ r: ri, c: ci });
                          if (cell) openCell(cell);
                        }}
                        onKeyDown={(e) => onKey(e, ri, ci, cell)}
                        onFocus={() => {
                          setFocus({ r: ri, c: ci });
                          setHover({ skill: s, target: t });
                        }}
                        onBlur={() => setHover(null)}
                        onMouseEnter={() => setHover({ skill: s, target: t })}
                        onMouseLeave={() => setHover(null)}
                      >
                        <span className="mmark" aria-hidden="true">
                          {MARK[st]}
                        </span>
                        <span className="mword">{STATUS_WORD[st]}</span>
                        {cell && cell.reasons.length > 0 && <span className="mcount">{cell.reasons.length}</span>}
                      </div>
                    );
                  })}
                </div>
              ))}
            </div>
            {tip && <CellTip cell={tip} grid={gridRef.current} />}
          </div>
        )}
        <p className="muted small matrix-keys">
          Arrow keys move between cells · Enter opens the explanation · Home/End jump to the row's ends.
        </p>
      </section>
      {open && <Explain snap={snap} skill={open.skill} target={open.target} dir={dirs[open.skill]} />}
    </main>
  );
}

/** The reasons of the hovered or focused cell, next to it. */
function CellTip({ cell, grid }: { cell: Cell; grid: HTMLElement | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useEffect(() => {
    const el = grid?.querySelector<HTMLElement>(`.mrow[data-skill="${cell.skill}"] [data-target="${cell.target}"]`);
    if (!el) return;
    // Fixed to the viewport, so the scrolling grid never clips it; above the cell when there is no room below.
    const a = el.getBoundingClientRect();
    const h = ref.current?.offsetHeight ?? 120;
    const below = a.bottom + 6 + h < window.innerHeight;
    setPos({
      left: Math.max(8, Math.min(a.left, window.innerWidth - 348)),
      top: below ? a.bottom + 6 : Math.max(8, a.top - 6 - h),
    });
  }, [cell, grid]);
  return (
    <div
      id="matrix-tip"
      role="tooltip"
      ref={ref}
      className={`matrix-tip ${cell.status}`}
      style={pos ? { left: pos.left, top: pos.top } : { visibility: 'hidden' }}
      data-testid="matrix-tip"
    >
      <div className="tip-head">
        <b>{cell.skill}</b> on <b>{cell.target}</b>: <span className={`status-chip ${cell.status}`}>{cell.status}</span>
      </div>
      {cell.reasons.length === 0 ? (
        <p className="tip-line">Delivered as authored.</p>
      ) : (
        <ul>
          {cell.reasons.map((r) => (
            <li key={r.code + r.message} className="tip-line">
              <code>{r.code}</code> {r.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Explain({
  snap,
  skill,
  target,
  dir,
}: {
  snap: CompileSnapshot;
  skill: string;
  target: string;
  dir: string | undefined;
}) {
  const x = useMemo(() => explainCell(snap, skill, target), [snap, skill, target]);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [skill, target]);
  const close = (): void => navigate({ view: 'matrix' });
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!x) {
    return (
      <aside className="drawer" role="dialog" aria-label="Explanation">
        <p className="muted">
          No skill "{skill}" or target "{target}" in this project.
        </p>
        <button type="button" className="btn" onClick={close}>
          Close
        </button>
      </aside>
    );
  }
  const t = x.target;
  return (
    <aside
      className="drawer explain"
      role="dialog"
      aria-label={`${skill} on ${target}`}
      tabIndex={-1}
      ref={ref}
      data-testid="explain"
    >
      <div className="drawer-head">
        <div>
          <h2>
            {skill} <span className="muted">→</span> {target}
          </h2>
          <span className={`status-chip ${x.cell.status}`} data-testid="explain-status">
            {x.cell.status}
          </span>
        </div>
        <button type="button" className="icon-btn" aria-label="Close" onClick={close}>
          ×
        </button>
      </div>
      <p className="drawer-desc">
        {x.cell.status === 'full'
          ? `${t.agent} receives ${skill} as authored.`
          : x.cell.status === 'degraded'
            ? `${t.agent} receives a weaker version of ${skill}.`
            : `${t.agent} drops ${skill} or never triggers it.`}
      </p>
      {x.cell.reasons.length > 0 && (
        <>
          <h3>Why</h3>
          <ul className="td-notes">
            {x.cell.reasons.map((r) => (
              <li key={r.code + r.message} className={`note ${x.cell.status}`} data-reason={r.code}>
                <span className="note-k">{r.code}</span> {r.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="drawer-facts">
        <div>
          <span className="fact-k">Loading</span>
          <span>{t.loading}</span>
        </div>
        <div>
          <span className="fact-k">Standing / session</span>
          <span>{x.standingTokens === null ? 'n/a' : `${formatTokens(x.standingTokens)} tok`}</span>
        </div>
        <div>
          <span className="fact-k">When loaded</span>
          <span>{x.loadedTokens === null ? 'n/a' : `${formatTokens(x.loadedTokens)} tok`}</span>
        </div>
      </div>
      <h3>What {target} delivers</h3>
      <ul className="explain-list">
        <li>
          <span className="fact-k">agent</span> {t.agent}
        </li>
        <li>
          <span className="fact-k">writes</span> <span className="mono">{t.outputs.join(', ')}</span>
        </li>
        <li>
          <span className="fact-k">capabilities</span>{' '}
          {t.capabilities.length ? t.capabilities.join(', ') : 'instructions only'}
        </li>
        <li>
          <span className="fact-k">skill requires</span>{' '}
          {x.requires.length ? x.requires.join(', ') : 'nothing beyond instructions'}
        </li>
        <li>
          <span className="fact-k">authored</span> {x.disclosure}
        </li>
        <li>
          <span className="fact-k">format</span> {t.vendorDoc.title}{' '}
          <span className="muted">(checked {t.vendorDoc.checked})</span>
        </li>
      </ul>
      {x.notes.length > 0 && (
        <>
          <h3>Notes</h3>
          <ul className="td-notes">
            {x.notes.map((n) => (
              <li key={n} className="note info">
                {n}
              </li>
            ))}
          </ul>
        </>
      )}
      {dir && (
        <div className="explain-actions">
          <button type="button" className="btn primary" onClick={() => navigate({ view: 'previews', arg: dir })}>
            Preview {skill}'s output
          </button>
        </div>
      )}
    </aside>
  );
}
