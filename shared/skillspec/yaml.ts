/**
 * The strict SkillSpec reader: YAML text → the typed model, driven by descriptor.ts.
 *
 * YAML 1.2 core semantics (`yes`/`no`/`on`/`off` are strings). A string field takes any
 * scalar as the text written (`label: 123` is "123"); bool and integer fields take only
 * real booleans and integers. Unknown keys in a typed object, duplicate keys anywhere,
 * alias bombs and runaway nesting are errors naming the path, line and column.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair, type Scalar } from 'yaml';
import { SkillSpecDef, type FieldDef, type StructDef, type TypeDef } from './descriptor';
import { SpecError, debugStr } from './errors';
import type { SkillSpec, YamlValue } from './model';
import { parseHint, positionOf } from './yaml-diagnostics';
import { nestingBeyond } from './yaml-prescan';

/** Larger spec files are refused before parsing (the largest known spec is ~260 KB). */
export const MAX_SPEC_BYTES = 4 * 1024 * 1024;
/** Deepest nesting accepted (the reference's YAML layer stops at 128 too). */
export const MAX_DEPTH = 128;
/** Nodes an alias may expand to, summed over the document. */
export const MAX_ALIAS_NODES = 100_000;
/**
 * The YAML library takes seconds on a file nested a million levels deep, so a cheap scan
 * refuses absurd nesting before it runs. The scan over-counts a little (it cannot tell a
 * more-indented continuation line from a child), hence a looser bound than MAX_DEPTH,
 * which the reader then enforces exactly.
 */
const PRESCAN_DEPTH = 4 * MAX_DEPTH;

export type ScalarKind = 'null' | 'bool' | 'int' | 'float' | 'str';
interface ScalarInfo {
  kind: ScalarKind;
  /** The text as written (plain) or the decoded string (quoted, block). */
  text: string;
  /** Whether it is an empty plain scalar (`key:` with nothing after it). */
  empty: boolean;
}

const NULL_RE = /^(?:~|null|Null|NULL)?$/;
const BOOL_RE = /^(?:true|True|TRUE|false|False|FALSE)$/;
// Integers as the reference's YAML layer reads them: an optional sign, then decimal digits
// or a 0x / 0o / 0b prefix. Decimal digits with a leading zero (`007`) are a string.
const INT_RE = /^[-+]?(?:0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+|[0-9]+)$/;
const LEADING_ZERO_RE = /^[-+]?0[0-9]+$/;
const FLOAT_RE =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const STR_TAG = 'tag:yaml.org,2002:str';

class Fail {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

interface Ctx {
  doc: Document.Parsed;
  aliasNodes: number;
  inAlias: number;
  /** Inside an untagged enum: strings must be real strings, as with serde's buffered content. */
  strict: number;
  /** Alias → its anchored node (yaml's resolve() searches the whole document each time). */
  anchors: Map<unknown, Node | undefined>;
}

/**
 * Parse `text` as a SkillSpec. `displayPath` names the file in messages. Throws a
 * SpecError of kind `parse_yaml` on any problem.
 */
export function readSpecYaml(text: string, displayPath: string): SkillSpec {
  const fail = (message: string, offset?: number): never => {
    const position = offset === undefined ? undefined : positionOf(text, offset);
    const located = position ? `${message} at line ${position.line} column ${position.column}` : message;
    const hint = parseHint(text, located, position);
    throw new SpecError(
      'parse_yaml',
      `failed to parse YAML from ${displayPath}: ${located}${hint ? `\nhelp: ${hint}` : ''}`,
      undefined,
      undefined,
      position,
    );
  };
  if (text.length > MAX_SPEC_BYTES)
    fail(`the file is larger than ${MAX_SPEC_BYTES / 1024 / 1024} MiB, the most a skill spec may be`);

  const deep = nestingBeyond(text, PRESCAN_DEPTH);
  if (deep !== -1) fail(`nesting is deeper than ${MAX_DEPTH} levels`, deep);

  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, {
      version: '1.2',
      schema: 'core',
      merge: false,
      uniqueKeys: false,
      prettyErrors: false,
      strict: true,
    });
  } catch (e) {
    if (e instanceof RangeError) return fail(`nesting is deeper than ${MAX_DEPTH} levels`);
    throw e;
  }
  const problem = doc.errors[0];
  if (problem) {
    if (problem.code === 'MULTIPLE_DOCS')
      fail('deserializing from YAML containing more than one document is not supported');
    const msg =
      problem.code === 'BLOCK_AS_IMPLICIT_KEY' || /Nested mappings are not allowed/.test(problem.message)
        ? 'mapping values are not allowed in this context'
        : problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    fail(msg, problem.pos[0]);
  }
  if (doc.contents === null) fail('EOF while parsing a value');

  const ctx: Ctx = { doc, aliasNodes: 0, inAlias: 0, strict: 0, anchors: new Map() };
  try {
    return readStruct(ctx, doc.contents, SkillSpecDef, '', 0, 0) as unknown as SkillSpec;
  } catch (e) {
    if (e instanceof Fail) return fail(e.message, e.offset);
    if (e instanceof RangeError) return fail(`nesting is deeper than ${MAX_DEPTH} levels`);
    throw e;
  }
}

// --- node helpers ------------------------------------------------------------

function offsetOf(node: Node | null | undefined, fallback: number): number {
  return node?.range?.[0] ?? fallback;
}

/** Follow an alias (counting what it expands to); any other node is returned as is. */
function deref(ctx: Ctx, node: unknown, depth: number, at: number): Node | null {
  if (depth > MAX_DEPTH) throw new Fail('recursion limit exceeded', at);
  if (ctx.inAlias > 0 && ++ctx.aliasNodes > MAX_ALIAS_NODES) {
    throw new Fail(`aliases expand to more than ${MAX_ALIAS_NODES} nodes`, at);
  }
  if (node === null || node === undefined) return null;
  if (isAlias(node)) {
    let target = ctx.anchors.get(node);
    if (!ctx.anchors.has(node)) {
      target = node.resolve(ctx.doc) as Node | undefined;
      ctx.anchors.set(node, target);
    }
    if (!target) throw new Fail(`unknown anchor ${debugStr(node.source)}`, offsetOf(node, at));
    return target as Node;
  }
  return node as Node;
}

/** Run `fn` on `node`, inside the alias budget when `raw` was an alias. */
function withNode<T>(ctx: Ctx, raw: unknown, depth: number, at: number, fn: (node: Node | null, at: number) => T): T {
  const node = deref(ctx, raw, depth, at);
  const alias = isAlias(raw);
  const where = offsetOf(raw as Node, at);
  if (alias) ctx.inAlias++;
  try {
    return fn(node, where);
  } finally {
    if (alias) ctx.inAlias--;
  }
}

/** How a plain scalar with this text is typed (null, bool, int, float or a string). */
export function scalarKindOf(src: string): ScalarKind {
  return NULL_RE.test(src)
    ? 'null'
    : BOOL_RE.test(src)
      ? 'bool'
      : LEADING_ZERO_RE.test(src)
        ? 'str'
        : INT_RE.test(src)
          ? 'int'
          : FLOAT_RE.test(src)
            ? 'float'
            : 'str';
}

function scalarInfo(node: Scalar): ScalarInfo {
  const src =
    typeof node.source === 'string'
      ? node.source
      : node.value === null || node.value === undefined
        ? ''
        : String(node.value);
  if (node.type === 'PLAIN' && !node.tag) {
    return { kind: scalarKindOf(src), text: src, empty: src === '' };
  }
  if (node.tag && node.tag !== STR_TAG) {
    const v = node.value;
    const kind: ScalarKind =
      v === null
        ? 'null'
        : typeof v === 'boolean'
          ? 'bool'
          : typeof v === 'number'
            ? Number.isInteger(v) && !/[.eE]/.test(src)
              ? 'int'
              : 'float'
            : 'str';
    return { kind, text: src, empty: false };
  }
  return { kind: 'str', text: src, empty: false };
}

/** A null node (no value at all) reads as an empty plain scalar. */
function infoOf(node: Node | null): ScalarInfo | undefined {
  if (node === null) return { kind: 'null', text: '', empty: true };
  return isScalar(node) ? scalarInfo(node) : undefined;
}

/** serde's wording for what was found instead. */
function unexpected(node: Node | null): string {
  if (node !== null && isSeq(node)) return 'sequence';
  if (node !== null && isMap(node)) return 'map';
  const s = infoOf(node)!;
  switch (s.kind) {
    case 'null':
      return 'unit value';
    case 'bool':
      return `boolean \`${/^t/i.test(s.text) ? 'true' : 'false'}\``;
    case 'int':
      return `integer \`${s.text}\``;
    case 'float':
      return `floating point \`${s.text}\``;
    default:
      return `string ${debugStr(s.text)}`;
  }
}

function expected(t: TypeDef): string {
  switch (t.k) {
    case 'str':
      return 'a string';
    case 'bool':
      return 'a boolean';
    case 'int':
      return t.bits;
    case 'enum':
      return `enum ${t.name}`;
    case 'list':
      return 'a sequence';
    case 'map':
      return 'a map';
    case 'opt':
      return expected(t.of);
    case 'struct':
      return `struct ${t.s.name}`;
    case 'untagged':
      return `enum ${t.name}`;
    case 'any':
      return 'any value';
  }
}

function prefixed(path: string, message: string): string {
  return path === '' ? message : `${path}: ${message}`;
}

function invalidType(node: Node | null, t: TypeDef, path: string, at: number): Fail {
  return new Fail(prefixed(path, `invalid type: ${unexpected(node)}, expected ${expected(t)}`), offsetOf(node, at));
}

/** serde's list of alternatives: `a`, `a` or `b`, one of `a`, `b`, `c`. */
export function oneOf(names: readonly string[], none: string): string {
  const q = names.map((n) => `\`${n}\``);
  if (q.length === 0) return none;
  if (q.length === 1) return `expected ${q[0]}`;
  if (q.length === 2) return `expected ${q[0]} or ${q[1]}`;
  return `expected one of ${q.join(', ')}`;
}

const child = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

// --- readers -------------------------------------------------------------------

function read(ctx: Ctx, raw: unknown, t: TypeDef, path: string, depth: number, at: number): unknown {
  return withNode(ctx, raw, depth, at, (node, where) => readNode(ctx, node, t, path, depth, where));
}

function readNode(ctx: Ctx, node: Node | null, t: TypeDef, path: string, depth: number, at: number): unknown {
  switch (t.k) {
    case 'str': {
      const s = infoOf(node);
      if (!s || (ctx.strict > 0 && s.kind !== 'str')) throw invalidType(node, t, path, at);
      return s.text;
    }
    case 'bool': {
      const s = infoOf(node);
      if (!s || s.kind !== 'bool') throw invalidType(node, t, path, at);
      return /^t/i.test(s.text);
    }
    case 'int': {
      const s = infoOf(node);
      if (!s || s.kind !== 'int') throw invalidType(node, t, path, at);
      const n = parseInteger(s.text);
      const ok = t.bits === 'u32' ? n >= 0n && n <= 0xffffffffn : n >= -(2n ** 63n) && n < 2n ** 63n;
      if (!ok)
        throw new Fail(prefixed(path, `invalid value: integer \`${n}\`, expected ${t.bits}`), offsetOf(node, at));
      return Number(n);
    }
    case 'enum': {
      const s = infoOf(node);
      // A mapping or sequence could only name a variant through a YAML tag.
      if (!s)
        throw new Fail(
          prefixed(path, `invalid type: ${unexpected(node)}, expected a YAML tag starting with '!'`),
          offsetOf(node, at),
        );
      if (ctx.strict > 0 && s.kind !== 'str') throw invalidType(node, t, path, at);
      if (!t.values.includes(s.text)) {
        throw new Fail(
          prefixed(path, `unknown variant \`${s.text}\`, ${oneOf(t.values, 'there are no variants')}`),
          offsetOf(node, at),
        );
      }
      return s.text;
    }
    case 'opt': {
      const s = infoOf(node);
      if (s && s.kind === 'null') return null;
      return readNode(ctx, node, t.of, path, depth, at);
    }
    case 'list': {
      if (node !== null && isSeq(node)) {
        return node.items.map((item, i) => read(ctx, item, t.of, `${path}[${i}]`, depth + 1, offsetOf(node, at)));
      }
      if (infoOf(node)?.empty) return [];
      throw invalidType(node, t, path, at);
    }
    case 'map': {
      const out: Record<string, unknown> = Object.create(null);
      if (node !== null && isMap(node)) {
        for (const pair of node.items as Pair[]) {
          const key = readKey(ctx, pair, path, depth, offsetOf(node, at));
          if (Object.prototype.hasOwnProperty.call(out, key)) {
            throw new Fail(prefixed(path, `duplicate entry with key ${debugStr(key)}`), offsetOf(pair.key as Node, at));
          }
          out[key] = read(ctx, pair.value, t.of, child(path, key), depth + 1, offsetOf(pair.key as Node, at));
        }
        return out;
      }
      if (infoOf(node)?.empty) return out;
      throw invalidType(node, t, path, at);
    }
    case 'struct':
      return readStruct(ctx, node, t.s, path, depth, at);
    case 'untagged': {
      ctx.strict++;
      try {
        for (const v of t.variants) {
          try {
            return readStruct(ctx, node, v, path, depth, at);
          } catch (e) {
            if (!(e instanceof Fail)) throw e;
          }
        }
      } finally {
        ctx.strict--;
      }
      throw new Fail(prefixed(path, `data did not match any variant of untagged enum ${t.name}`), offsetOf(node, at));
    }
    case 'any':
      return readAny(ctx, node, path, depth, at);
  }
}

function readKey(ctx: Ctx, pair: Pair, path: string, depth: number, at: number): string {
  return withNode(ctx, pair.key, depth + 1, at, (node, where) => {
    const s = infoOf(node);
    if (!s)
      throw new Fail(prefixed(path, `invalid type: ${unexpected(node)}, expected a string`), offsetOf(node, where));
    return s.text;
  });
}

function readStruct(
  ctx: Ctx,
  node: Node | null,
  s: StructDef,
  path: string,
  depth: number,
  at: number,
): Record<string, unknown> {
  const found = new Map<string, unknown>();
  const where = offsetOf(node, at);
  if (node !== null && isMap(node)) {
    for (const pair of node.items as Pair[]) {
      const key = readKey(ctx, pair, path, depth, where);
      const keyAt = offsetOf(pair.key as Node, where);
      const field = s.fields.find((fd) => fd.name === key);
      if (!field) {
        throw new Fail(
          prefixed(
            path,
            `unknown field \`${key}\`, ${oneOf(
              s.fields.map((fd) => fd.name),
              'there are no fields',
            )}`,
          ),
          keyAt,
        );
      }
      if (found.has(key)) throw new Fail(prefixed(path, `duplicate field \`${key}\``), keyAt);
      found.set(key, read(ctx, pair.value, field.t, child(path, key), depth + 1, keyAt));
    }
  } else if (!infoOf(node)?.empty) {
    throw invalidType(node, { k: 'struct', s }, path, at);
  }
  const out: Record<string, unknown> = {};
  for (const field of s.fields) {
    if (found.has(field.name)) {
      const v = found.get(field.name);
      if (!(field.skipIfNull && v === null)) out[field.name] = v;
      continue;
    }
    if (field.required) throw new Fail(prefixed(path, `missing field \`${field.name}\``), where);
    const d = defaultFor(field);
    if (!(field.skipIfNull && d === null)) out[field.name] = d;
  }
  return out;
}

function defaultFor(field: FieldDef): unknown {
  const t = field.t;
  switch (t.k) {
    case 'list':
      return [];
    case 'map':
      return Object.create(null);
    case 'opt':
      return null;
    case 'bool':
      return false;
    case 'enum':
      return t.dflt ?? null;
    case 'struct':
      return readDefaultStruct(t.s);
    default:
      return null;
  }
}

function readDefaultStruct(s: StructDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of s.fields) {
    const d = defaultFor(field);
    if (!(field.skipIfNull && d === null)) out[field.name] = d;
  }
  return out;
}

function readAny(ctx: Ctx, node: Node | null, path: string, depth: number, at: number): YamlValue {
  if (node !== null && isSeq(node)) {
    return node.items.map((item, i) =>
      withNode(ctx, item, depth + 1, offsetOf(node, at), (n, w) => readAny(ctx, n, `${path}[${i}]`, depth + 1, w)),
    );
  }
  if (node !== null && isMap(node)) {
    const out: Record<string, YamlValue> = Object.create(null);
    for (const pair of node.items as Pair[]) {
      const key = withNode(ctx, pair.key, depth + 1, offsetOf(node, at), (k, w) => {
        const s = infoOf(k);
        return s ? s.text : JSON.stringify(readAny(ctx, k, path, depth + 1, w));
      });
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        throw new Fail(prefixed(path, `duplicate entry with key ${debugStr(key)}`), offsetOf(pair.key as Node, at));
      }
      out[key] = withNode(ctx, pair.value, depth + 1, offsetOf(pair.key as Node, at), (v, w) =>
        readAny(ctx, v, child(path, key), depth + 1, w),
      );
    }
    return out;
  }
  const s = infoOf(node)!;
  switch (s.kind) {
    case 'null':
      return null;
    case 'bool':
      return /^t/i.test(s.text);
    case 'int':
      return Number(parseInteger(s.text));
    case 'float': {
      const v = isScalar(node) && typeof node.value === 'number' ? node.value : Number(s.text);
      return v;
    }
    default:
      return s.text;
  }
}

function parseInteger(text: string): bigint {
  const neg = text.startsWith('-');
  const n = BigInt(text.replace(/^[-+]/, '')); // BigInt reads 0x, 0o and 0b itself
  return neg ? -n : n;
}
