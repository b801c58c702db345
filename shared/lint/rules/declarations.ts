import { plural } from '../../text/format';
import { ARTIFACT_REF_RE, type Skill } from '../../ksf/model';
import { lintMcpServers } from '../mcp';
import { schemaWarnings } from '../schema-warnings';
import type { Check } from '../types';

/** A gate must ground its verdict in a script or an artifact, not a model's opinion. */
export function gateVerdictCheck(skill: Skill): Check | undefined {
  const { targets, artifacts } = skill.manifest;
  if (targets.mode !== 'gate') return undefined;
  const ok =
    skill.tree.entries.some((e) => e.path === 'scripts' || e.path.startsWith('scripts/')) ||
    artifacts.produces.length > 0;
  return {
    id: 'gate-verdict',
    status: ok ? 'pass' : 'fail',
    detail: ok
      ? 'has a scripts/ dir or a declared artifact'
      : 'gate mode but no scripts/ dir and no artifacts.produces — nothing to produce a verdict',
  };
}

export function mcpCheck(skill: Skill): Check | undefined {
  const { servers } = skill.manifest.mcp;
  if (servers.length === 0) return undefined;
  const { failures, warnings } = lintMcpServers(servers);
  if (failures.length) return { id: 'mcp', status: 'fail', detail: failures.join('; ') };
  if (warnings.length) return { id: 'mcp', status: 'warn', detail: warnings.join('; ') };
  return {
    id: 'mcp',
    status: 'pass',
    detail: `${plural(servers.length, 'server')}: ${servers.map((s) => s.name).join(', ')}`,
  };
}

export function artifactsCheck(skill: Skill): Check | undefined {
  const { produces, consumes } = skill.manifest.artifacts;
  const refs = [...produces, ...consumes];
  if (refs.length === 0) return undefined;
  const bad = refs.filter((r) => !ARTIFACT_REF_RE.test(r));
  return bad.length
    ? { id: 'artifacts', status: 'fail', detail: `malformed: ${bad.join(', ')} (want name@version)` }
    : { id: 'artifacts', status: 'pass', detail: `produces ${produces.length}, consumes ${consumes.length}` };
}

/** Forward-compatible `schema` warnings, and the opt-in strict reading against the JSON Schema. */
export function schemaChecks(
  skill: Skill,
  jsonSchema: ((manifest: unknown) => readonly string[]) | undefined,
): Check[] {
  if (!skill.rawManifest) return [];
  const checks: Check[] = [];
  const lints = schemaWarnings(skill.rawManifest);
  if (lints.length) checks.push({ id: 'schema', status: 'warn', detail: lints.join('; ') });
  if (jsonSchema) {
    const issues = jsonSchema(skill.rawManifest);
    checks.push(
      issues.length
        ? { id: 'json-schema', status: 'fail', detail: issues.join('; ') }
        : { id: 'json-schema', status: 'pass', detail: 'valid against spec/schema/skill.schema.json' },
    );
  }
  return checks;
}
