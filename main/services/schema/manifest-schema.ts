import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import schema from '../../../spec/schema/skill.schema.json';

let validate: ReturnType<Ajv2020['compile']> | undefined;

/**
 * The strict reading: the parsed manifest against spec/schema/skill.schema.json. ajv
 * generates code, so it stays in main/ (never the CSP-bound renderer). Compiled lazily:
 * only `--schema` pays for it.
 */
export function jsonSchemaIssues(manifest: unknown): string[] {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    validate = ajv.compile(schema);
  }
  if (validate(toJson(manifest))) return [];
  return (validate.errors ?? []).map((e) => {
    const at = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` "${String((e.params as { additionalProperty?: string }).additionalProperty)}"` : '';
    return `${at} ${e.message ?? 'is invalid'}${extra}`;
  });
}

/** TOML dates become strings, as a JSON reading of the manifest would have them. */
function toJson(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  if (typeof v === 'bigint') return Number(v);
  return v;
}
