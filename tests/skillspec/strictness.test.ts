/**
 * Every typed object rejects an unknown key, wherever it sits. The cases are derived from
 * the model descriptor: for each object reachable from the top level, a minimal spec with
 * that object in place gets one extra key and must fail with its path.
 */
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SkillSpecDef, type StructDef, type TypeDef } from '../../shared/skillspec/descriptor';
import { errorOf, parse } from './helpers';

type Obj = Record<string, unknown>;

function minimal(t: TypeDef): unknown {
  switch (t.k) {
    case 'str':
      return 'x';
    case 'bool':
      return false;
    case 'int':
      return 1;
    case 'enum':
      return t.values[0];
    case 'list':
      return [];
    case 'map':
      return {};
    case 'opt':
      return null;
    case 'struct':
      return minimalStruct(t.s);
    case 'untagged':
      return minimalStruct(t.variants[0]!);
    case 'any':
      return null;
  }
}

function minimalStruct(s: StructDef): Obj {
  const o: Obj = {};
  for (const f of s.fields) if (f.required) o[f.name] = minimal(f.t);
  if (s.name === 'SkillSpec') Object.assign(o, { schema: 'skillspec/v0', id: 't', title: 'T', description: 'D' });
  return o;
}

interface Case {
  label: string;
  path: string;
  doc: Obj;
}

/** One case per (struct, position): the root document with that struct carrying `unexpected`. */
function cases(): Case[] {
  const out: Case[] = [];
  const seen = new Set<string>();
  // Walk with a builder that places a value at the current position inside a fresh root.
  const visit = (s: StructDef, path: string, place: (v: Obj) => Obj, depth: number): void => {
    const key = `${s.name}@${path.replace(/\[\d+\]/g, '[]')}`;
    if (seen.has(key) || depth > 6) return;
    seen.add(key);
    const inst = minimalStruct(s);
    out.push({ label: `${s.name} at ${path || '(top level)'}`, path, doc: place({ ...inst, unexpected: true }) });
    for (const f of s.fields) {
      const childPath = path ? `${path}.${f.name}` : f.name;
      const into = (v: unknown): Obj => place({ ...inst, [f.name]: v });
      walkType(f.t, childPath, into, depth);
    }
  };
  const walkType = (t: TypeDef, path: string, place: (v: unknown) => Obj, depth: number): void => {
    switch (t.k) {
      case 'struct':
        return visit(t.s, path, (v) => place(v), depth + 1);
      case 'untagged':
        return; // a shape choice reports "did not match any variant" instead
      case 'opt':
        return walkType(t.of, path, place, depth);
      case 'list':
        return walkType(t.of, `${path}[0]`, (v) => place([v]), depth);
      case 'map':
        return walkType(t.of, `${path}.k1`, (v) => place({ k1: v }), depth);
      default:
        return;
    }
  };
  visit(SkillSpecDef, '', (v) => v, 0);
  return out;
}

const all = cases();

describe('unknown keys in every typed object', () => {
  it('covers every typed object of the model', () => {
    const names = new Set(all.map((c) => c.label.split(' ')[0]));
    for (const n of [
      'SkillSpec',
      'Entry',
      'ToolBoundary',
      'Route',
      'RouteHandoff',
      'ExecutionPlan',
      'ExecutionPhase',
      'ExecutionJump',
      'Rule',
      'Predicate',
      'State',
      'Elicitation',
      'ElicitationCondition',
      'ElicitationChoice',
      'TraceConfig',
      'Dependency',
      'DependencyCheck',
      'DependencyPermission',
      'DependencyProvision',
      'DependencyProvisionOption',
      'Import',
      'ImportRequires',
      'ImportUse',
      'Resource',
      'ResourceUse',
      'CodeBlock',
      'CodeProvenance',
      'CodeRequires',
      'CodeSafety',
      'Artifact',
      'ProducerRef',
      'ConsumerRef',
      'Recipe',
      'RecipeRequires',
      'CommandTemplate',
      'CommandRequires',
      'Snippet',
      'Proof',
      'ScenarioTest',
      'Expectation',
      'Activation',
    ]) {
      expect(names.has(n), n).toBe(true);
    }
  });

  it.each(all.map((c) => [c.label, c] as const))('%s', (_label, c) => {
    const text = stringify(c.doc, { version: '1.2' });
    const msg = errorOf(() => parse(text));
    expect(msg).toContain(`${c.path ? `${c.path}: ` : 'spec.yml: '}unknown field \`unexpected\`, expected`);
    expect(msg).toMatch(/ at line \d+ column \d+$/);
  });

  it('rejects an unknown key in each code source shape and recipe step as a shape mismatch', () => {
    expect(
      errorOf(() =>
        parse(
          stringify({
            schema: 'skillspec/v0',
            id: 't',
            title: 'T',
            description: 'D',
            code: { c: { language: 'sh', kind: 'probe', source: { inline: 'x', extra: 1 } } },
          }),
        ),
      ),
    ).toContain('code.c.source: data did not match any variant of untagged enum CodeSource');
    expect(
      errorOf(() =>
        parse(
          stringify({
            schema: 'skillspec/v0',
            id: 't',
            title: 'T',
            description: 'D',
            recipes: { r: { steps: [{ branch: { if: 'a', then: 'b', else: 'c' } }] } },
          }),
        ),
      ),
    ).toContain('recipes.r.steps[0]: data did not match any variant of untagged enum RecipeStep');
  });
});
