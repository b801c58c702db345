import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { TARGETS } from '../../../../shared/targets/registry';
import { Word } from '../../glossary';
import { sizedAfterLayout } from '../../components/virtual-rect';
import { navigate } from '../../route';
import type { MatrixCell as Cell } from '../../../../shared/ipc/channels/reports';
import { cellKey, MARK, STATUS_WORD, type StatusFilter } from './cells';

const ROW_HEIGHT = 44;

/**
 * The grid itself: only the rows in view are in the DOM (a project may have 1,000 skills),
 * the header and the skill column stay in view while it scrolls either way, and one cell
 * is the grid's tab stop (arrow keys move it).
 */
export function MatrixGrid({
  skills,
  targets,
  byKey,
  status,
  active,
  open,
}: {
  skills: readonly string[];
  targets: readonly string[];
  byKey: ReadonlyMap<string, Cell>;
  status: StatusFilter;
  active: readonly string[];
  open: { skill: string; target: string } | null;
}) {
  const [focus, setFocus] = useState<{ r: number; c: number }>({ r: 0, c: 0 });
  const [hover, setHover] = useState<{ skill: string; target: string } | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const wantFocus = useRef<{ r: number; c: number } | null>(null);
  const compact = targets.length > 7;

  const virtualizer = useVirtualizer({
    count: skills.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // The scroller's max-height in matrix.css: max(360px, 100vh - 300px).
    ...sizedAfterLayout(Math.max(360, window.innerHeight - 300)),
  });
  const items = virtualizer.getVirtualItems();

  const r = Math.min(focus.r, Math.max(0, skills.length - 1));
  const c = Math.min(focus.c, Math.max(0, targets.length - 1));
  // The tab stop stays inside the rendered rows: the focused row when it is there, else the first one shown.
  const tabRow = items.some((v) => v.index === r) ? r : (items[0]?.index ?? 0);

  const cellAt = (rr: number, cc: number) =>
    gridRef.current?.querySelector<HTMLElement>(`[data-r="${rr}"][data-c="${cc}"]`) ?? null;
  const moveTo = (nr: number, nc: number): void => {
    const rr = Math.max(0, Math.min(skills.length - 1, nr));
    const cc = Math.max(0, Math.min(targets.length - 1, nc));
    setFocus({ r: rr, c: cc });
    virtualizer.scrollToIndex(rr, { align: 'auto' });
    // Focus now when the cell exists (only its tabindex changes), so fast key repeats never act on a stale
    // cell; a row scrolled into view is focused once it renders.
    const el = cellAt(rr, cc);
    if (el) el.focus();
    else wantFocus.current = { r: rr, c: cc };
  };
  useLayoutEffect(() => {
    const w = wantFocus.current;
    if (!w) return;
    const el = cellAt(w.r, w.c);
    if (el) {
      wantFocus.current = null;
      el.focus();
    }
  });
  const openCell = (cell: Cell): void => navigate({ view: 'matrix', arg: `${cell.skill}@${cell.target}` });
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

  const columns = `minmax(170px, 240px) repeat(${targets.length}, minmax(${compact ? 84 : 120}px, 1fr))`;
  const tip = hover ? byKey.get(cellKey(hover.skill, hover.target)) : undefined;
  return (
    <div className="matrix-scroll" ref={scrollRef}>
      <div
        className={`matrix-grid ${compact ? 'compact' : ''}`}
        role="grid"
        aria-label="Compatibility matrix"
        aria-rowcount={skills.length + 1}
        aria-colcount={targets.length + 1}
        ref={gridRef}
        style={{ ['--mcols' as string]: columns, minWidth: 170 + targets.length * (compact ? 84 : 120) }}
      >
        <div role="row" className="matrix-row head" aria-rowindex={1}>
          <div role="columnheader" className="matrix-corner">
            skill \ target
          </div>
          {targets.map((t) => {
            const def = TARGETS.find((d) => d.id === t)!;
            return (
              <div
                key={t}
                role="columnheader"
                className={`matrix-head ${active.includes(t) ? 'active' : ''}`}
                title={`${def.agent} — ${def.loading}${active.includes(t) ? ' — active in this project' : ''}`}
                data-target={t}
              >
                <span className="matrix-head-id">{t}</span>
                <span className={`pill ${def.loading}`}>
                  <Word word={def.loading} plain />
                </span>
              </div>
            );
          })}
        </div>
        <div className="matrix-body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((v) => {
            const s = skills[v.index]!;
            const ri = v.index;
            return (
              <div
                key={s}
                role="row"
                className="matrix-row"
                data-skill={s}
                data-index={ri}
                aria-rowindex={ri + 2}
                ref={virtualizer.measureElement}
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <div role="rowheader" className="matrix-skill">
                  {s}
                </div>
                {targets.map((t, ci) => {
                  const cell = byKey.get(cellKey(s, t));
                  const st = cell?.status ?? 'unsupported';
                  const dim = status !== 'all' && st !== status;
                  const isOpen = open?.skill === s && open.target === t;
                  const tipId = hover?.skill === s && hover.target === t ? 'matrix-tip' : undefined;
                  const n = cell?.reasons.length ?? 0;
                  return (
                    <div
                      key={t}
                      role="gridcell"
                      tabIndex={ri === tabRow && ci === c ? 0 : -1}
                      data-r={ri}
                      data-c={ci}
                      data-target={t}
                      data-status={st}
                      aria-selected={isOpen}
                      // Starts with the visible words (status, reason count) so speech input can name the cell.
                      aria-label={`${STATUS_WORD[st]}${n ? ` ${n}` : ''}: ${s} on ${t}${n ? ` — ${cell!.reasons.map((x) => x.message).join('; ')}` : ''}`}
                      aria-describedby={tipId}
                      className={`matrix-cell ${st} ${dim ? 'dim' : ''} ${isOpen ? 'open' : ''}`}
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
                      <span className="matrix-mark" aria-hidden="true">
                        {MARK[st]}
                      </span>
                      <span className="matrix-word">{STATUS_WORD[st]}</span>
                      {/* A space in the text (flex drops it from the layout): the words read "Unsupported 3". */}
                      {n > 0 && (
                        <>
                          {' '}
                          <span className="matrix-count">{n}</span>
                        </>
                      )}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      {tip && <CellTip cell={tip} grid={gridRef.current} />}
    </div>
  );
}

/** The reasons of the hovered or focused cell, next to it. */
function CellTip({ cell, grid }: { cell: Cell; grid: HTMLElement | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useEffect(() => {
    const el = grid?.querySelector<HTMLElement>(
      `.matrix-row[data-skill="${CSS.escape(cell.skill)}"] [data-target="${CSS.escape(cell.target)}"]`,
    );
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
      <div className="matrix-tip-head">
        <b>{cell.skill}</b> on <b>{cell.target}</b>: <span className={`status-chip ${cell.status}`}>{cell.status}</span>
      </div>
      {cell.reasons.length === 0 ? (
        <p className="matrix-tip-line">Delivered as authored.</p>
      ) : (
        <ul>
          {cell.reasons.map((x) => (
            <li key={x.code + x.message} className="matrix-tip-line">
              <code>{x.code}</code> {x.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
