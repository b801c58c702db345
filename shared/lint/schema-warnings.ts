import { CAPABILITIES, EVENTS, KNOWN_KEYS, KNOWN_TABLES, LORE_COLLECTIONS } from '../ksf/model';
import { isTable, type TomlTable } from '../ksf/toml';

const SERVER_KEYS = ['transport', 'command', 'args', 'url', 'env', 'headers', 'tools', 'timeout_ms'];

/** One forward-compatibility warning, with where it is and what would have been understood there. */
export interface SchemaFinding {
  readonly message: string;
  /** `table`: an unknown `[table]`; `key`: an unknown key in a known table; `value`: a value not in its list. */
  readonly kind: 'table' | 'key' | 'value';
  /** The TOML path it is about: `['bogus']`, `['permissions', 'netwrok']`, `['triggers', 'events']`. */
  readonly path: readonly string[];
  /** For a `value`: the value as written. */
  readonly value?: string;
  /** What this build understands in that place (tables, keys or values). */
  readonly known: readonly string[];
}

/**
 * Forward-compatible reading: what this build does not know is a warning, never an
 * error, so a skill written for a newer spec still loads. Unknown keys inside known
 * tables are included — a misspelt `netwrok = true` must not pass in silence.
 */
export function schemaWarnings(raw: TomlTable): string[] {
  return schemaFindings(raw).map((f) => f.message);
}

/** The same warnings as `schemaWarnings`, in the same order, as data (the editor's quick fixes read them). */
export function schemaFindings(raw: TomlTable): SchemaFinding[] {
  const out: SchemaFinding[] = [];
  for (const key of Object.keys(raw)) {
    if (!(KNOWN_TABLES as readonly string[]).includes(key))
      out.push({
        message: `unknown table [${key}] — typo or unsupported, ignored`,
        kind: 'table',
        path: [key],
        known: KNOWN_TABLES,
      });
  }
  for (const [table, keys] of Object.entries(KNOWN_KEYS)) {
    const t = raw[table];
    if (!isTable(t)) continue;
    for (const key of Object.keys(t)) {
      if (!keys.includes(key))
        out.push({
          message: `unknown key ${table}.${key} — typo or unsupported, ignored`,
          kind: 'key',
          path: [table, key],
          known: keys,
        });
    }
  }
  const mcp = raw.mcp;
  const servers = isTable(mcp) ? mcp.servers : undefined;
  if (isTable(servers)) {
    for (const [name, server] of Object.entries(servers)) {
      if (!isTable(server)) continue;
      for (const key of Object.keys(server)) {
        if (!SERVER_KEYS.includes(key))
          out.push({
            message: `unknown key mcp.servers.${name}.${key} — typo or unsupported, ignored`,
            kind: 'key',
            path: ['mcp', 'servers', name, key],
            known: SERVER_KEYS,
          });
      }
    }
  }
  enumValues(out, raw, 'triggers', 'events', EVENTS);
  enumValues(out, raw, 'targets', 'requires', CAPABILITIES);
  enumValues(out, raw, 'lore', 'reads', LORE_COLLECTIONS);
  enumValues(out, raw, 'lore', 'writes', LORE_COLLECTIONS);
  const targets = raw.targets;
  const mode = isTable(targets) ? targets.mode : undefined;
  if (typeof mode === 'string' && mode !== 'skill' && mode !== 'gate')
    out.push({
      message: `targets.mode "${mode}" is not one of skill, gate (treated as skill)`,
      kind: 'value',
      path: ['targets', 'mode'],
      value: mode,
      known: ['skill', 'gate'],
    });
  return out;
}

function enumValues(
  out: SchemaFinding[],
  raw: TomlTable,
  table: string,
  key: string,
  allowed: readonly string[],
): void {
  const t = raw[table];
  const values = isTable(t) ? t[key] : undefined;
  if (!Array.isArray(values)) return;
  for (const v of values) {
    if (typeof v === 'string' && !allowed.includes(v))
      out.push({
        message: `${table}.${key} "${v}" is not one of ${allowed.join(', ')}`,
        kind: 'value',
        path: [table, key],
        value: v,
        known: allowed,
      });
  }
}
