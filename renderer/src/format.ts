import { formatCount } from '../../shared/text/format';

export function formatTokens(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n >= 10_000) return `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k`;
  return formatCount(n);
}

export function relativeTime(iso: string, now: number = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 10) return 'just now';
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return formatDate(iso);
}

/**
 * Local date and time as `2026-12-05 14:20` (`14:20:07` with seconds), year first so no reader
 * mistakes the day for the month. Not `toLocaleString()`: the first call in a page starts Intl
 * (tens of ms), and the dashboard's first render of a kept scan would pay it while a person
 * waits for it.
 */
export function formatDateTime(iso: string, { seconds = false } = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}${seconds ? `:${pad2(d.getSeconds())}` : ''}`;
  return `${formatDate(iso)} ${time}`;
}

/** Local date as `2026-12-05` (see formatDateTime). */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
