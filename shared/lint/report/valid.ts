import { CHECK_IDS, type Check, type Location } from '../types';
import type { SkillReport } from './model';

const STATUSES: ReadonlySet<unknown> = new Set(['pass', 'warn', 'fail']);
const IDS: ReadonlySet<unknown> = new Set(CHECK_IDS);

/**
 * Whether a value read back from outside (the lint cache) has the shape of a report, down to
 * every check and location, so a damaged or foreign one is never rendered as a verdict.
 */
export function isReport(v: unknown): v is SkillReport {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.name === 'string' &&
    (r.version === null || typeof r.version === 'string') &&
    typeof r.path === 'string' &&
    typeof r.manifested === 'boolean' &&
    Array.isArray(r.checks) &&
    all(r.checks, isCheck)
  );
}

function isCheck(v: unknown): v is Check {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return (
    IDS.has(c.id) &&
    STATUSES.has(c.status) &&
    (c.detail === undefined || typeof c.detail === 'string') &&
    (c.locations === undefined || (Array.isArray(c.locations) && all(c.locations, isLocation)))
  );
}

function isLocation(v: unknown): v is Location {
  if (typeof v !== 'object' || v === null) return false;
  const l = v as Record<string, unknown>;
  return typeof l.file === 'string' && place(l.line) && place(l.column) && place(l.endLine) && place(l.endColumn);
}

const place = (n: unknown): boolean => Number.isInteger(n) && (n as number) >= 1;

function all(xs: readonly unknown[], ok: (x: unknown) => boolean): boolean {
  for (const x of xs) if (!ok(x)) return false;
  return true;
}
