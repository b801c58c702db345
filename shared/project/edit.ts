import { fail, type Result } from '../result';
import { isTable, parseToml, type TomlTable } from '../ksf/toml';
import { CONFIG_FILE, parseProjectConfig } from './config';

/**
 * Surgical edits of `kitbash.toml` that keep every byte the edit does not concern:
 * comments, blank lines, key order, quoting and unrelated tables. smol-toml drops comments
 * on a round trip, so instead of re-serialising we locate the exact lines of the key or
 * table we change (line-based: table headers, `key = value` lines whose value may span
 * lines) and splice text there. The result is re-parsed and refused unless it reads as
 * exactly the intended document — so a layout this scanner misreads fails closed.
 */

/** The `[policy]` keys the project reads (shared/project/config.ts `readPolicy`), with the TOML type each takes. */
export const POLICY_KEYS = {
  allow_sources: 'strings',
  deny_network: 'boolean',
  deny_write: 'boolean',
  max_budget: 'integer',
  deny_remote_exec: 'boolean',
  deny_mcp: 'boolean',
  max_mcp_tools: 'integer',
  allow_mcp_servers: 'strings',
  enforce_in_agent: 'boolean',
} as const;
export type PolicyKey = keyof typeof POLICY_KEYS;
export type PolicyValue = boolean | number | readonly string[];

export type ConfigEdit =
  /** `null` removes `[project].targets` (targets are then detected by markers). */
  | { readonly kind: 'targets'; readonly targets: readonly string[] | null }
  /** `null` removes the key (the reference's default applies). */
  | { readonly kind: 'policy'; readonly key: PolicyKey; readonly value: PolicyValue | null }
  /** The `index`-th `[[policy.exceptions]]` table, in file order. */
  | { readonly kind: 'removeException'; readonly index: number };

const HEADER = /^\s*(\[\[?)\s*([A-Za-z0-9_-]+(?:\s*\.\s*[A-Za-z0-9_-]+)*)\s*(\]\]?)\s*(?:#.*)?$/;
const KEY = /^\s*([A-Za-z0-9_-]+)\s*=/;
const CAN_CLOSE = /\]|"""|'''/;

interface Header {
  readonly line: number;
  readonly name: string;
  readonly array: boolean;
}

/** Lines with their own terminators, so joining them gives the text back byte for byte. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function body(line: string): string {
  return line.replace(/\r?\n$/, '');
}

/**
 * Table headers in file order. A line that looks like a header but sits inside a
 * multi-line value is skipped by stepping over each value's lines.
 */
function headers(lines: readonly string[]): Header[] {
  const out: Header[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = body(lines[i]!);
    const h = HEADER.exec(l);
    if (h && (h[1] === '[[') === (h[3] === ']]')) {
      out.push({ line: i, name: h[2]!.replace(/\s+/g, ''), array: h[1] === '[[' });
      continue;
    }
    if (KEY.test(l)) i = valueEnd(lines, i, lines.length);
  }
  return out;
}

/** Last line of the `key = value` starting at `start`: the fewest lines that parse as one assignment. */
function valueEnd(lines: readonly string[], start: number, limit: number): number {
  let text = '';
  for (let j = start; j < limit; j++) {
    text += lines[j]!;
    // Only a line that can close a multi-line value is worth a parse (keeps long arrays linear-ish).
    if ((j === start || CAN_CLOSE.test(lines[j]!)) && parseToml(text.trimStart()).ok) return j;
  }
  return start;
}

/** Where a section's own lines run: after its header up to the next header (or EOF). */
function sectionRange(
  lines: readonly string[],
  hs: readonly Header[],
  name: string,
): { start: number; end: number } | undefined {
  const k = hs.findIndex((h) => !h.array && h.name === name);
  if (k < 0) return undefined;
  return { start: hs[k]!.line + 1, end: k + 1 < hs.length ? hs[k + 1]!.line : lines.length };
}

function renderValue(v: PolicyValue | readonly string[]): string {
  // A JSON string of text without control characters is a valid TOML basic string.
  if (Array.isArray(v)) return `[${(v as readonly string[]).map((s) => JSON.stringify(s)).join(', ')}]`;
  return String(v);
}

/** The trailing `# comment` of a one-line assignment, if any (the first `#` after which the value still parses). */
function trailingComment(line: string): string {
  for (let p = line.indexOf('#'); p >= 0; p = line.indexOf('#', p + 1)) {
    if (parseToml(line.slice(0, p).trimStart()).ok)
      return `${/\s*$/.exec(line.slice(0, p))![0] || ' '}${line.slice(p)}`;
  }
  return '';
}

/** Set or remove `key` in table `table`, creating the table (before `beforeHeader` if given, else at the end). */
function setKey(lines: string[], table: string, key: string, value: string | null, beforeHeader?: string): void {
  const hs = headers(lines);
  const range = sectionRange(lines, hs, table);
  const eol = lines.some((l) => l.endsWith('\r\n')) ? '\r\n' : '\n';
  if (!range) {
    if (value === null) return;
    const at = beforeHeader ? hs.find((h) => h.name === beforeHeader) : undefined;
    const block = [`[${table}]${eol}`, `${key} = ${value}${eol}`];
    if (at) {
      lines.splice(at.line, 0, ...block, eol);
      return;
    }
    if (lines.length && !lines[lines.length - 1]!.endsWith('\n')) lines[lines.length - 1] += eol;
    if (lines.length) block.unshift(eol);
    lines.push(...block);
    return;
  }
  let lastKeyEnd = range.start - 1;
  for (let i = range.start; i < range.end; i++) {
    const m = KEY.exec(body(lines[i]!));
    if (!m) continue;
    const end = valueEnd(lines, i, range.end);
    if (m[1] === key) {
      if (value === null) {
        lines.splice(i, end - i + 1);
        return;
      }
      const last = body(lines[end]!);
      const comment = end === i ? trailingComment(last) : '';
      const prefix = /^\s*[A-Za-z0-9_-]+\s*=\s*/.exec(lines[i]!)![0];
      const term = lines[end]!.endsWith('\r\n') ? '\r\n' : lines[end]!.endsWith('\n') ? '\n' : '';
      lines.splice(i, end - i + 1, `${prefix}${value}${comment}${term}`);
      return;
    }
    lastKeyEnd = end;
    i = end;
  }
  if (value === null) return;
  const after = lastKeyEnd;
  if (after >= 0 && !lines[after]!.endsWith('\n')) lines[after] += eol;
  lines.splice(after + 1, 0, `${key} = ${value}${eol}`);
}

function removeTable(lines: string[], index: number): boolean {
  const hs = headers(lines);
  const tables = hs.map((h, k) => ({ h, k })).filter(({ h }) => h.array && h.name === 'policy.exceptions');
  const t = tables[index];
  if (!t) return false;
  const end = t.k + 1 < hs.length ? hs[t.k + 1]!.line : lines.length;
  lines.splice(t.h.line, end - t.h.line);
  return true;
}

/** The document the edits mean, built on the parsed tree (what the re-parse must equal). */
function intended(raw: TomlTable, edits: readonly ConfigEdit[]): TomlTable {
  const doc = cloneTable(raw);
  const table = (name: string): TomlTable => {
    if (!isTable(doc[name])) doc[name] = {};
    return doc[name] as TomlTable;
  };
  for (const e of edits) {
    if (e.kind === 'targets') {
      if (e.targets === null) {
        if (isTable(doc.project)) delete doc.project.targets;
      } else table('project').targets = [...e.targets];
    } else if (e.kind === 'policy') {
      if (e.value === null) {
        if (isTable(doc.policy)) delete doc.policy[e.key];
      } else
        table('policy')[e.key] = Array.isArray(e.value)
          ? [...(e.value as string[])]
          : typeof e.value === 'number'
            ? BigInt(e.value)
            : e.value;
    } else {
      const list = isTable(doc.policy) ? doc.policy.exceptions : undefined;
      if (Array.isArray(list)) list.splice(e.index, 1);
      // With its last table gone the array is gone too, not empty.
      if (Array.isArray(list) && list.length === 0 && isTable(doc.policy)) delete doc.policy.exceptions;
    }
  }
  return doc;
}

function cloneTable(t: TomlTable): TomlTable {
  const copy = (v: unknown): unknown => (Array.isArray(v) ? v.map(copy) : isTable(v) ? cloneTable(v) : v);
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, copy(v)]));
}

/** Order-insensitive for table keys (an inserted key may land anywhere), order-sensitive for arrays. */
function canonical(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}n` : String(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v instanceof Date) return `d${v.toISOString()}`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function checkValue(e: ConfigEdit): string | undefined {
  const text = (s: string): boolean => s.length > 0 && !/\p{Cc}/u.test(s);
  if (e.kind === 'targets')
    return e.targets && !e.targets.every(text)
      ? 'a target id must be non-empty text without control characters'
      : undefined;
  if (e.kind === 'removeException')
    return Number.isInteger(e.index) && e.index >= 0 ? undefined : 'an exception index must be a whole number';
  if (e.value === null) return undefined;
  const type = POLICY_KEYS[e.key];
  if (type === 'boolean' && typeof e.value !== 'boolean') return `${e.key} takes true or false`;
  if (type === 'integer' && !(typeof e.value === 'number' && Number.isSafeInteger(e.value) && e.value >= 0))
    return `${e.key} takes a whole number ≥ 0`;
  if (
    type === 'strings' &&
    !(Array.isArray(e.value) && (e.value as unknown[]).every((s) => typeof s === 'string' && text(s)))
  )
    return `${e.key} takes a list of non-empty strings`;
  return undefined;
}

/**
 * Apply `edits` to the text of kitbash.toml. Everything the edits do not name stays byte
 * for byte; the result must parse to exactly the intended document or nothing is returned.
 */
export function editProjectConfig(text: string, edits: readonly ConfigEdit[]): Result<string> {
  const before = parseProjectConfig(text);
  if (!before.ok)
    return fail(
      'invalid-input',
      `${CONFIG_FILE} does not parse (${before.error.message}) — fix it by hand first; nothing changed`,
    );
  for (const e of edits) {
    const bad = checkValue(e);
    if (bad) return fail('invalid-request', `${CONFIG_FILE}: ${bad} — nothing changed`);
  }
  const lines = splitLines(text);
  // Removals by index refer to the file as read; apply the highest first so earlier indexes stay valid.
  const removals = edits
    .filter((e): e is Extract<ConfigEdit, { kind: 'removeException' }> => e.kind === 'removeException')
    .sort((a, b) => b.index - a.index);
  for (const r of removals) {
    if (!removeTable(lines, r.index))
      return fail(
        'not-found',
        `${CONFIG_FILE} has no [[policy.exceptions]] table number ${r.index + 1} — nothing changed`,
      );
  }
  for (const e of edits) {
    if (e.kind === 'targets') setKey(lines, 'project', 'targets', e.targets === null ? null : renderValue(e.targets));
    else if (e.kind === 'policy')
      setKey(lines, 'policy', e.key, e.value === null ? null : renderValue(e.value), 'policy.exceptions');
  }
  const after = lines.join('');
  const parsed = parseToml(after);
  const expected = intended(before.value.raw, [...removals, ...edits.filter((e) => e.kind !== 'removeException')]);
  // A [policy] that only held exception tables disappears with the last of them (no header of its own).
  if (
    isTable(expected.policy) &&
    Object.keys(expected.policy).length === 0 &&
    !headers(lines).some((h) => !h.array && h.name === 'policy')
  )
    delete expected.policy;
  if (!parsed.ok || canonical(parsed.value) !== canonical(expected)) {
    return fail(
      'unsupported',
      `${CONFIG_FILE}: this change cannot be made without rewriting parts of the file (e.g. an inline [policy] or dotted keys) — edit it by hand; nothing changed`,
    );
  }
  return { ok: true, value: after };
}
