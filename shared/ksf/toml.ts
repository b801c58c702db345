import { parse, TomlError } from 'smol-toml';
import { fail, ok, type Result } from '../result';

export type TomlTable = Record<string, unknown>;

/** A failure carries the line and column the parser stopped at; the caller names the file. */
export type TomlResult = Result<TomlTable>;

/** Keys that could reach Object.prototype once the table is used as a plain object. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Full TOML 1.0 (smol-toml). Prototype-reaching keys are refused anywhere in the
 * document, and the parser's multi-line code frame is reduced to one line.
 */
export function parseToml(text: string): TomlResult {
  let table: TomlTable;
  try {
    table = parse(text, { maxDepth: 64 }) as TomlTable;
  } catch (e) {
    if (e instanceof TomlError) {
      const first = e.message.split('\n')[0] ?? e.message;
      return fail('invalid-input', first.replace(/^Invalid TOML document:\s*/, ''), { line: e.line, column: e.column });
    }
    return fail('invalid-input', e instanceof Error ? e.message : String(e));
  }
  const poisoned = findPrototypeKey(table, []);
  if (poisoned) {
    const key = poisoned[poisoned.length - 1]!;
    // The line that defines it: the key before `=`, or a segment of a [table] header.
    const definition = new RegExp(`^\\s*(?:\\[\\[?)?(?:[^=\\]]*?\\.)?\\s*["']?${key}["']?\\s*(?:=|\\.|\\])`);
    const line = text.split(/\r?\n/).findIndex((l) => definition.test(l));
    return fail(
      'invalid-input',
      `refusing prototype-reaching key: "${poisoned.join('.')}"`,
      line >= 0 ? { line: line + 1, column: 1 } : {},
    );
  }
  return ok(table);
}

/** `parseToml` for a named file: a failure reads `<file>:<line>:<col>: invalid TOML: …`. */
export function parseTomlFile(text: string, file: string): TomlResult {
  const r = parseToml(text);
  return r.ok ? r : { ok: false, error: { ...r.error, file, message: `invalid TOML: ${r.error.message}` } };
}

function findPrototypeKey(value: unknown, path: string[]): string[] | undefined {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const hit = findPrototypeKey(v, [...path, String(i)]);
      if (hit) return hit;
    }
  } else if (isTable(value)) {
    for (const key of Object.keys(value)) {
      if (PROTOTYPE_KEYS.has(key)) return [...path, key];
      const hit = findPrototypeKey(value[key], [...path, key]);
      if (hit) return hit;
    }
  }
  return undefined;
}

export function isTable(v: unknown): v is TomlTable {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Date) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}
