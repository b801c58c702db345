/**
 * JSON that gives back exactly what was stored: every object keeps its prototype (plain,
 * or none — the TOML and YAML readers make tables without one, so that a key such as
 * "constructor" is only ever data), every number its value. What JSON cannot hold exactly
 * (undefined, -0, NaN, a Date or any other class) makes the value unstorable, and the
 * caller then does without the cache rather than keep something that would read back
 * different.
 */

const UNSTORABLE = Symbol('unstorable');

/** The stored form of `v`, or undefined when it cannot be stored exactly. */
export function toExact(v: unknown): unknown {
  const out = encode(v);
  return out === UNSTORABLE ? undefined : out;
}

function encode(v: unknown): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? v : UNSTORABLE;
  if (Array.isArray(v)) {
    if (Object.keys(v).length !== v.length || Object.getPrototypeOf(v) !== Array.prototype) return UNSTORABLE;
    const items = v.map(encode);
    return items.includes(UNSTORABLE) ? UNSTORABLE : items;
  }
  if (typeof v !== 'object') return UNSTORABLE;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return UNSTORABLE;
  const fields: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const e = encode(x);
    if (e === UNSTORABLE || k === '__proto__') return UNSTORABLE;
    fields[k] = e;
  }
  return proto === null ? { n: fields } : { p: fields };
}

/** The value `toExact` stored; throws on anything it did not write (the caller treats that as a miss). */
export function fromExact(v: unknown): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
  if (Array.isArray(v)) return v.map(fromExact);
  if (typeof v !== 'object') throw new Error('not a stored value');
  const keys = Object.keys(v);
  if (keys.length !== 1 || (keys[0] !== 'n' && keys[0] !== 'p')) throw new Error('not a stored value');
  const fields = (v as Record<string, unknown>)[keys[0]];
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new Error('not a stored value');
  const out: Record<string, unknown> = keys[0] === 'n' ? (Object.create(null) as Record<string, unknown>) : {};
  for (const [k, x] of Object.entries(fields)) out[k] = fromExact(x);
  return out;
}
