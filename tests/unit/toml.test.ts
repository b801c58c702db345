import { describe, expect, it } from 'vitest';
import { isTable, parseToml } from '../../shared/ksf/toml';

function ok(text: string): Record<string, unknown> {
  const r = parseToml(text);
  if (!r.ok) throw new Error(`expected valid TOML, got ${r.error.message} at ${r.error.line}:${r.error.column}`);
  return r.value;
}

describe('parseToml: TOML 1.0 in full (SPEC §5.1, D7)', () => {
  it('parses tables, strings, integers, floats and booleans', () => {
    const t = ok('[skill]\nname = "demo"\n[context]\nbudget = 1500\nratio = 0.5\n[permissions]\nnetwork = true\n');
    expect(t).toEqual({
      skill: { name: 'demo' },
      context: { budget: 1500, ratio: 0.5 },
      permissions: { network: true },
    });
  });

  it('accepts arrays over several lines, with comments and a trailing comma', () => {
    const t = ok('tools = [\n  "read",  # the reader\n  "bash:git *",\n]\n');
    expect(t.tools).toEqual(['read', 'bash:git *']);
  });

  it('accepts inline tables', () => {
    const t = ok('[mcp.servers]\nfs = { command = "mcp-fs", tools = ["read"] }\n');
    expect(t).toEqual({ mcp: { servers: { fs: { command: 'mcp-fs', tools: ['read'] } } } });
  });

  it('accepts dotted keys', () => {
    const t = ok('skill.name = "demo"\ncontext.budget = 100\n[a]\nb.c.d = true\n');
    expect(t).toEqual({ skill: { name: 'demo' }, context: { budget: 100 }, a: { b: { c: { d: true } } } });
  });

  it('accepts offset date-times, local dates and local times', () => {
    const t = ok('odt = 1979-05-27T07:32:00Z\nld = 1979-05-27\nlt = 07:32:00\n');
    expect(t.odt).toBeInstanceOf(Date);
    expect((t.odt as Date).toISOString()).toBe('1979-05-27T07:32:00.000Z');
    expect(t.ld).toBeInstanceOf(Date);
    expect((t.ld as Date).toISOString()).toBe('1979-05-27');
    expect((t.lt as Date).toISOString()).toContain('07:32:00');
  });

  it('accepts multi-line basic and literal strings', () => {
    const t = ok('a = """\nline one\nline two"""\nb = \'\'\'\nraw \\n text\'\'\'\n');
    expect(t.a).toBe('line one\nline two');
    expect(t.b).toBe('raw \\n text');
  });

  it('accepts quoted keys and arrays of tables', () => {
    const t = ok('"quoted key" = 1\n[[items]]\nx = 1\n[[items]]\nx = 2\n');
    expect(t['quoted key']).toBe(1);
    expect(t.items).toEqual([{ x: 1 }, { x: 2 }]);
  });

  it('reads 1500.0 as the number 1500', () => {
    expect(ok('budget = 1500.0\n').budget).toBe(1500);
  });

  it('reads an empty document as an empty table', () => {
    expect(ok('')).toEqual({});
    expect(ok('# nothing but a comment\n')).toEqual({});
  });
});

describe('parseToml: errors', () => {
  it('refuses a key defined twice, with its 1-based line and column', () => {
    const r = parseToml('[skill]\nname = "a"\nname = "b"\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.line).toBe(3);
    expect(r.error.column).toBe(1);
    expect(r.error.message).toMatch(/redefine|duplicate|already/i);
  });

  it('refuses a table defined twice', () => {
    const r = parseToml('[skill]\nname = "a"\n[skill]\nversion = "1.0.0"\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(3);
  });

  it('reports a syntax error with line and column and a one-line message', () => {
    const r = parseToml('[skill]\nname = "demo"\nbudget = \n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.line).toBe(3);
    expect(r.error.column).toBeGreaterThanOrEqual(1);
    expect(r.error.message).not.toContain('\n');
    expect(r.error.message).not.toMatch(/^Invalid TOML document/);
  });

  it('reports trailing garbage after a value at its column', () => {
    const r = parseToml('a = "x" b\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect({ line: r.error.line, column: r.error.column }).toEqual({ line: 1, column: 9 });
  });

  it('reports an unterminated string', () => {
    const r = parseToml('[skill]\nname = "demo\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(2);
  });
});

describe('parseToml: prototype-reaching keys are refused', () => {
  const cases: Array<[string, string]> = [
    ['__proto__ as a key', '[skill]\n__proto__ = 1\n'],
    ['constructor as a key', '[skill]\nconstructor = 1\n'],
    ['prototype as a key', '[skill]\nprototype = 1\n'],
    ['__proto__ as a table name', '[__proto__]\nx = 1\n'],
    ['constructor as a table name segment', '[a.constructor]\nx = 1\n'],
    ['prototype as a table name segment', '[prototype.b]\nx = 1\n'],
    ['a quoted "__proto__" key', '"__proto__" = 1\n'],
    ['__proto__ inside a dotted key', 'a.__proto__.b = 1\n'],
    ['prototype inside an inline table', 'x = { prototype = 1 }\n'],
    ['constructor inside an array of tables', '[[list]]\nconstructor = 1\n'],
  ];
  it.each(cases)('%s', (_what, text) => {
    const r = parseToml(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toMatch(/refusing prototype-reaching (key|table name segment)/);
  });

  it('names the refused key in the message', () => {
    const r = parseToml('[skill]\nconstructor = 1\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('constructor');
  });

  it('does not pollute Object.prototype', () => {
    parseToml('[__proto__]\npolluted = true\n');
    parseToml('"__proto__" = { polluted = true }\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('allows the words as values and inside longer keys', () => {
    const t = ok('a = "__proto__"\nconstructors = 1\nmy_prototype = 2\n');
    expect(t).toEqual({ a: '__proto__', constructors: 1, my_prototype: 2 });
  });
});

describe('isTable', () => {
  it('is true for plain objects only', () => {
    expect(isTable({})).toBe(true);
    expect(isTable(Object.create(null))).toBe(true);
    expect(isTable([])).toBe(false);
    expect(isTable(null)).toBe(false);
    expect(isTable(new Date())).toBe(false);
    expect(isTable('x')).toBe(false);
    expect(isTable(1)).toBe(false);
  });
});
