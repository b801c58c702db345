import { createRequire } from 'node:module';
import type Ajv2020Type from 'ajv/dist/2020';
import type addFormatsType from 'ajv-formats';
import schema from '../../../spec/schema/skill.schema.json';

type Validate = ReturnType<Ajv2020Type['compile']>;
let validate: Validate | undefined;

/**
 * The strict reading: the parsed manifest against spec/schema/skill.schema.json. ajv
 * generates code, so it stays in main/ (never the CSP-bound renderer), and it is loaded
 * on first use — it costs more start-up time than the rest of the CLI together.
 */
export function jsonSchemaIssues(manifest: unknown): string[] {
  validate ??= compile();
  if (validate(toJson(manifest))) return [];
  return (validate.errors ?? []).map((e) => {
    const at = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : '(root)';
    const extra =
      e.keyword === 'additionalProperties'
        ? ` "${String((e.params as { additionalProperty?: string }).additionalProperty)}"`
        : '';
    return `${at} ${e.message ?? 'is invalid'}${extra}`;
  });
}

function compile(): Validate {
  const load = createRequire(__filename);
  const Ajv2020 = (load('ajv/dist/2020') as { default: typeof Ajv2020Type }).default;
  const addFormats = (load('ajv-formats') as { default: typeof addFormatsType }).default;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** TOML dates become strings, as a JSON reading of the manifest would have them. */
function toJson(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  if (typeof v === 'bigint') return Number(v);
  return v;
}
