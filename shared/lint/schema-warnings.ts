import { CAPABILITIES, EVENTS, KNOWN_KEYS, KNOWN_TABLES, LORE_COLLECTIONS } from '../ksf/model';
import { isTable, type TomlTable } from '../ksf/toml';

const SERVER_KEYS = ['transport', 'command', 'args', 'url', 'env', 'headers', 'tools', 'timeout_ms'];

/**
 * Forward-compatible reading: what this build does not know is a warning, never an
 * error, so a skill written for a newer spec still loads. Unknown keys inside known
 * tables are included — a misspelt `netwrok = true` must not pass in silence.
 */
export function schemaWarnings(raw: TomlTable): string[] {
  const out: string[] = [];
  for (const key of Object.keys(raw)) {
    if (!(KNOWN_TABLES as readonly string[]).includes(key))
      out.push(`unknown table [${key}] — typo or unsupported, ignored`);
  }
  for (const [table, keys] of Object.entries(KNOWN_KEYS)) {
    const t = raw[table];
    if (!isTable(t)) continue;
    for (const key of Object.keys(t)) {
      if (!keys.includes(key)) out.push(`unknown key ${table}.${key} — typo or unsupported, ignored`);
    }
  }
  const mcp = raw.mcp;
  const servers = isTable(mcp) ? mcp.servers : undefined;
  if (isTable(servers)) {
    for (const [name, server] of Object.entries(servers)) {
      if (!isTable(server)) continue;
      for (const key of Object.keys(server)) {
        if (!SERVER_KEYS.includes(key))
          out.push(`unknown key mcp.servers.${name}.${key} — typo or unsupported, ignored`);
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
    out.push(`targets.mode "${mode}" is not one of skill, gate (treated as skill)`);
  return out;
}

function enumValues(out: string[], raw: TomlTable, table: string, key: string, allowed: readonly string[]): void {
  const t = raw[table];
  const values = isTable(t) ? t[key] : undefined;
  if (!Array.isArray(values)) return;
  for (const v of values) {
    if (typeof v === 'string' && !allowed.includes(v))
      out.push(`${table}.${key} "${v}" is not one of ${allowed.join(', ')}`);
  }
}
