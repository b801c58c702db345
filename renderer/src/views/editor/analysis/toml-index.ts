/**
 * Where things are in a skill.toml, by line, without a TOML parser: every key (its full
 * dotted path under its table header) and every header, with the columns of the key and
 * of its value. Good enough to place a message and a fix; the parser decides validity.
 */
import type { Range } from './types';

export interface TomlKey {
  readonly path: string;
  readonly line: number;
  /** Columns of the value after `=` (or the header's brackets). */
  readonly start: number;
  readonly end: number;
  /** Columns of the last segment of the key (of a header: the last segment of its name). */
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly header: boolean;
}

const SEGMENT = /"[^"]*"|'[^']*'|[^.\s"']+/g;
const KEY = /^(\s*)((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=\s*/;
const HEADER = /^(\s*)(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;

/** Segments split on dots outside quotes; quotes dropped. */
function clean(k: string): string {
  return (k.match(SEGMENT) ?? []).map((s) => s.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1')).join('.');
}

/** Columns [start, end) of the last dotted segment of `key`, which starts at column `at`. */
function lastSegment(key: string, at: number): [number, number] {
  const segs = [...key.matchAll(SEGMENT)];
  const last = segs[segs.length - 1];
  if (!last) return [at, at + key.length];
  return [at + last.index, at + last.index + last[0].length];
}

/** Every key and header of a TOML text, by line. */
export function tomlKeys(text: string): TomlKey[] {
  const keys: TomlKey[] = [];
  let table = '';
  text.split(/\r?\n/).forEach((l, i) => {
    const header = HEADER.exec(l);
    if (header) {
      table = clean(header[3]!);
      const nameAt = l.indexOf(header[3]!, header[1]!.length + header[2]!.length) + 1;
      const [keyStart, keyEnd] = lastSegment(header[3]!, nameAt);
      keys.push({
        path: table,
        line: i + 1,
        start: header[1]!.length + 1,
        end: l.trimEnd().length + 1,
        keyStart,
        keyEnd,
        header: true,
      });
      return;
    }
    const kv = KEY.exec(l);
    if (kv) {
      const path = (table ? `${table}.` : '') + clean(kv[2]!);
      const valueStart = kv[0].length + 1;
      const valueEnd = Math.max(l.replace(/\s+#[^"']*$/, '').trimEnd().length + 1, valueStart + 1);
      const [keyStart, keyEnd] = lastSegment(kv[2]!, kv[1]!.length + 1);
      keys.push({ path, line: i + 1, start: valueStart, end: valueEnd, keyStart, keyEnd, header: false });
    }
  });
  return keys;
}

export const valueRange = (k: TomlKey): Range => ({
  startLine: k.line,
  startColumn: k.start,
  endLine: k.line,
  endColumn: k.end,
});

export const keyRange = (k: TomlKey): Range => ({
  startLine: k.line,
  startColumn: k.keyStart,
  endLine: k.line,
  endColumn: k.keyEnd,
});

/**
 * The range a message is about: the longest `table.key` path it names that the text
 * defines (its value), else the `[table]` header of that path, else undefined.
 */
export function locateKey(index: readonly TomlKey[], message: string): Range | undefined {
  const candidates = [...message.matchAll(/\[?([a-z_][a-z0-9_-]*(?:\.[a-z0-9_][a-z0-9_-]*)*)\]?/g)].map((m) => m[1]!);
  let best: TomlKey | undefined;
  for (const c of candidates) {
    const exact = index.find((k) => k.path === c && !k.header) ?? index.find((k) => k.path === c);
    if (exact && (!best || c.length > best.path.length)) best = exact;
  }
  if (!best) {
    for (const c of candidates.filter((c) => c.includes('.'))) {
      const table = c.slice(0, c.lastIndexOf('.'));
      const header = index.find((k) => k.header && k.path === table);
      if (header) {
        best = header;
        break;
      }
    }
  }
  return best ? valueRange(best) : undefined;
}

/**
 * The lines a `[table]` spans: its header to the last non-blank line before the next header
 * (a value that runs over several lines stays inside).
 */
export function tableSpan(
  text: string,
  index: readonly TomlKey[],
  table: string,
): { header: TomlKey; end: number } | undefined {
  const i = index.findIndex((k) => k.header && k.path === table);
  if (i < 0) return undefined;
  const header = index[i]!;
  const lines = text.split(/\r?\n/);
  let end = (index.slice(i + 1).find((k) => k.header)?.line ?? lines.length + 1) - 1;
  while (end > header.line && lines[end - 1]!.trim() === '') end--;
  return { header, end };
}
