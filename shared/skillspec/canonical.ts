/**
 * The compact canonical JSON of a spec that the trace fingerprint hashes: every field of
 * every typed object in declaration order (null / [] / {} when absent), map sections
 * with sorted keys, untagged shapes as their inner object — the layout the reference's
 * model serialises to. Driven by descriptor.ts.
 */
import { SkillSpecDef, type StructDef, type TypeDef } from './descriptor';
import { compareKeys, type SkillSpec } from './model';

export const FINGERPRINT_PREFIX = 'skillspec.resolved_spec/v0\n';

export function canonicalSpecJson(spec: SkillSpec): string {
  return struct(spec as unknown as Record<string, unknown>, SkillSpecDef);
}

function struct(v: Record<string, unknown>, s: StructDef): string {
  const parts: string[] = [];
  for (const f of s.fields) {
    const x = v[f.name];
    if (f.skipIfNull && (x === null || x === undefined)) continue;
    parts.push(`${JSON.stringify(f.name)}:${value(x ?? null, f.t)}`);
  }
  return `{${parts.join(',')}}`;
}

function value(v: unknown, t: TypeDef): string {
  switch (t.k) {
    case 'opt':
      return v === null ? 'null' : value(v, t.of);
    case 'list':
      return `[${(v as unknown[]).map((x) => value(x, t.of)).join(',')}]`;
    case 'map': {
      const m = v as Record<string, unknown>;
      return `{${Object.keys(m)
        .sort(compareKeys)
        .map((k) => `${JSON.stringify(k)}:${value(m[k], t.of)}`)
        .join(',')}}`;
    }
    case 'struct':
      return struct(v as Record<string, unknown>, t.s);
    case 'untagged': {
      const o = v as Record<string, unknown>;
      const variant = t.variants.find((s) => s.fields[0]!.name in o);
      return struct(o, variant ?? t.variants[0]!);
    }
    default:
      return JSON.stringify(v);
  }
}
