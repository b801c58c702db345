import type { CellStatus } from '../../../../shared/targets';
import type { MatrixCell as Cell, MatrixReport as Matrix } from '../../../../shared/ipc/channels/reports';

export type StatusFilter = 'all' | CellStatus;
/** 'all', 'active', or one target id. */
export type TargetFilter = string;

export const STATUS_WORD: Record<CellStatus, string> = {
  full: 'Full',
  degraded: 'Degraded',
  unsupported: 'Unsupported',
};
export const MARK: Record<CellStatus, string> = { full: '✓', degraded: '◐', unsupported: '✕' };

/** `#/matrix/<skill>@<target>` opens that cell's explanation. */
export function parseArg(arg: string | undefined): { skill: string; target: string } | null {
  const m = arg ? /^([^@]+)@([a-z-]+)$/.exec(arg) : null;
  return m ? { skill: m[1]!, target: m[2]! } : null;
}

export const cellKey = (skill: string, target: string): string => `${skill}\0${target}`;

/** The grid after the filters: which targets are columns, which skills are rows, and the status counts. */
export function visibleGrid(
  matrix: Matrix,
  byKey: ReadonlyMap<string, Cell>,
  f: { query: string; status: StatusFilter; target: TargetFilter; active: readonly string[] },
): { targets: string[]; skills: string[]; counts: Record<CellStatus, number> } {
  const targets = matrix.targets.filter((t) =>
    f.target === 'all' ? true : f.target === 'active' ? f.active.includes(t) : t === f.target,
  );
  const q = f.query.trim().toLowerCase();
  const skills = matrix.skills.filter(
    (s) =>
      (!q || s.toLowerCase().includes(q)) &&
      (f.status === 'all' || targets.some((t) => byKey.get(cellKey(s, t))?.status === f.status)),
  );
  const counts = { full: 0, degraded: 0, unsupported: 0 };
  const shown = new Set(targets);
  for (const c of matrix.cells) if (shown.has(c.target)) counts[c.status]++;
  return { targets, skills, counts };
}
