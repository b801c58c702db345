import { KNOWN_KEYS, KNOWN_TABLES } from '../../../../shared/ksf/model';
import { tomlKeys } from './analysis/toml-index';

export interface TomlSuggestion {
  readonly label: string;
  readonly insert: string;
  readonly kind: 'table' | 'key';
}

/**
 * What skill.toml can take at a cursor (1-based line): after `[` on an empty line, the
 * manifest's tables not yet in the file; at the start of a line, the keys of the table
 * the line is in that are not set yet. Driven by the KSF model, so it never drifts from
 * what the loader reads.
 */
export function tomlCompletions(text: string, line: number, column: number): TomlSuggestion[] {
  const lines = text.split(/\r?\n/);
  const before = (lines[line - 1] ?? '').slice(0, column - 1);
  const keys = tomlKeys(text);
  if (/^\s*\[[A-Za-z_]*$/.test(before)) {
    const have = new Set(keys.filter((k) => k.header).map((k) => k.path));
    return KNOWN_TABLES.filter((t) => !have.has(t)).map((t) => ({ label: t, insert: `${t}]`, kind: 'table' as const }));
  }
  if (!/^\s*[A-Za-z_]*$/.test(before)) return [];
  const header = [...keys].reverse().find((k) => k.header && k.line < line);
  const table = header?.path ?? '';
  const known = KNOWN_KEYS[table];
  if (!known) return [];
  const set = new Set(keys.filter((k) => !k.header && k.line !== line).map((k) => k.path));
  return known
    .filter((k) => !set.has(`${table}.${k}`))
    .map((k) => ({ label: k, insert: `${k} = `, kind: 'key' as const }));
}
