/**
 * The JSON Schema (draft 2020-12) of skill.spec.yml, generated from descriptor.ts so it
 * says what the reader and validator accept — not what the reference's published
 * schema says where the two disagree (spec/SKILLSPEC.md lists the differences).
 * spec/schema/skill.spec.schema.json is this output; a test keeps them equal.
 */
import { SkillSpecDef, type FieldDef, type StructDef, type TypeDef } from './descriptor';

type Json = Record<string, unknown>;

export const IDENTIFIER_PATTERN = '^[a-z][a-z0-9_.-]*$';
const NON_BLANK = '\\S';

/** Map sections whose keys must be identifiers. */
const ID_KEYED = new Set([
  'states',
  'elicitations',
  'dependencies',
  'imports',
  'resources',
  'code',
  'artifacts',
  'recipes',
  'commands',
]);
/** Fields that must be identifiers, as `Struct.field`. */
const ID_FIELDS = new Set([
  'SkillSpec.id',
  'Route.id',
  'Rule.id',
  'ElicitationChoice.id',
  'DependencyProvisionOption.id',
  'ElicitationCondition.missing',
]);
/** String fields that must not be blank. */
const NON_BLANK_FIELDS = new Set([
  'SkillSpec.title',
  'SkillSpec.description',
  'Elicitation.question',
  'ElicitationChoice.label',
  'DependencyProvisionOption.label',
  'Import.path',
  'Resource.path',
  'CodeBlock.language',
  'CodeInlineSource.inline',
  'CodeFileSource.file',
  'RecipeBranch.if',
  'RecipeStepNote.note',
]);
/** Optional strings that, when present, must not be exactly empty. */
const NON_EMPTY_FIELDS = new Set([
  'Dependency.command',
  'Dependency.path',
  'Dependency.env',
  'DependencyCheck.command',
  'DependencyCheck.path',
  'DependencyCheck.env',
  'Import.section',
  'Artifact.path',
]);

export function skillSpecJsonSchema(): Json {
  const defs: Record<string, Json> = {};
  const root = structSchema(SkillSpecDef, defs);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://skillsmith.dev/schema/skill.spec.schema.json',
    title: 'SkillSpec v0 (skill.spec.yml)',
    ...root,
    $defs: Object.fromEntries(
      Object.keys(defs)
        .sort()
        .map((k) => [k, defs[k]]),
    ),
  };
}

function ref(s: StructDef, defs: Record<string, Json>): Json {
  if (!defs[s.name]) {
    defs[s.name] = {}; // reserve first: definitions may recurse
    defs[s.name] = structSchema(s, defs);
  }
  return { $ref: `#/$defs/${s.name}` };
}

function structSchema(s: StructDef, defs: Record<string, Json>): Json {
  const properties: Record<string, Json> = {};
  for (const f of s.fields) properties[f.name] = fieldSchema(s, f, defs);
  const out: Json = { type: 'object', additionalProperties: false, properties };
  const required = s.fields.filter((f) => f.required).map((f) => f.name);
  if (required.length) out['required'] = required;
  if (s.doc) out['description'] = s.doc;
  if (s.name === 'Expectation') out['anyOf'] = expectationAssertions(s);
  return out;
}

function fieldSchema(s: StructDef, f: FieldDef, defs: Record<string, Json>): Json {
  const key = `${s.name}.${f.name}`;
  let t = typeSchema(f.t, defs, !f.required);
  if (key === 'SkillSpec.schema') t = { const: 'skillspec/v0' };
  if (ID_FIELDS.has(key)) t = withString(t, { pattern: IDENTIFIER_PATTERN });
  if (NON_BLANK_FIELDS.has(key)) t = withString(t, { pattern: NON_BLANK });
  if (NON_EMPTY_FIELDS.has(key)) t = withString(t, { minLength: 1 });
  if (s.name === 'SkillSpec' && ID_KEYED.has(f.name))
    t = patchBranch(t, 'object', { propertyNames: { pattern: IDENTIFIER_PATTERN } });
  if (key === 'Elicitation.choices') t = patchBranch(t, 'array', { minItems: 1 });
  if (key === 'TraceConfig.record') t = patchBranch(t, 'array', { uniqueItems: true });
  return f.doc ? { ...t, description: f.doc } : t;
}

/** Add keywords to the branch of type `type` (the schema itself, or one arm of an `anyOf`). */
function patchBranch(t: Json, type: string, extra: Json): Json {
  if (Array.isArray(t['anyOf']))
    return { ...t, anyOf: (t['anyOf'] as Json[]).map((x) => (x['type'] === type ? { ...x, ...extra } : x)) };
  return { ...t, ...extra };
}

/** A scalar written for a string field is read as its text, so numbers and booleans are strings too. */
const STRING_LIKE: Json = { type: ['string', 'number', 'boolean'] };

function withString(t: Json, extra: Json): Json {
  if (Array.isArray(t['anyOf']))
    return {
      ...t,
      anyOf: (t['anyOf'] as Json[]).map((x) => (x['type'] === 'null' ? x : { type: 'string', ...extra })),
    };
  return { type: 'string', ...extra };
}

function typeSchema(t: TypeDef, defs: Record<string, Json>, defaulted: boolean): Json {
  // `key:` with nothing after it reads as the empty default of a list, map or struct.
  const orNull = (x: Json): Json => (defaulted ? { anyOf: [x, { type: 'null' }] } : x);
  switch (t.k) {
    case 'str':
      return STRING_LIKE;
    case 'bool':
      return { type: 'boolean' };
    case 'int':
      return t.bits === 'u32' ? { type: 'integer', minimum: 0, maximum: 4294967295 } : { type: 'integer' };
    case 'enum':
      return { enum: [...t.values] };
    case 'list':
      return orNull({ type: 'array', items: typeSchema(t.of, defs, false) });
    case 'map':
      return orNull({ type: 'object', additionalProperties: typeSchema(t.of, defs, false) });
    case 'opt':
      return { anyOf: [typeSchema(t.of, defs, false), { type: 'null' }] };
    case 'struct':
      return orNull(ref(t.s, defs));
    case 'untagged':
      return { oneOf: t.variants.map((v) => ref(v, defs)) };
    case 'any':
      return {};
  }
}

/** At least one assertion: a route, a non-empty list, or an *_exact key (even []). */
function expectationAssertions(s: StructDef): Json[] {
  return s.fields.map((f) => {
    if (f.name === 'route')
      return { required: ['route'], properties: { route: { type: ['string', 'number', 'boolean'] } } };
    if (f.name.endsWith('_exact')) return { required: [f.name], properties: { [f.name]: { type: 'array' } } };
    return { required: [f.name], properties: { [f.name]: { type: 'array', minItems: 1 } } };
  });
}
