import type { CheckId } from '../types';
import type { SkillReport } from './model';

const HELP: Partial<Record<CheckId, string>> = {
  manifest:
    'skill.toml must load and satisfy the frozen constraints (name, semver, description length, budget and standing ranges).',
  references:
    'Every {{namespace.name}} template variable must resolve: artifact, lore or an existing prompts/<name>.md.',
  budget: 'The resolved SKILL.md body must fit context.budget (tokens ≈ UTF-16 length / 4).',
  standing: 'The standing stub (first non-heading paragraph) must fit context.standing.',
  'gate-verdict': 'A gate-mode skill needs a scripts/ folder or a declared artifact to ground its verdict.',
  mcp: 'Declared MCP servers must be exact, pinned programs or https endpoints with no literal credentials.',
  artifacts: 'Artifact references are name@version with an integer version.',
  schema: 'Unknown tables, keys and forward-compatible enum values are reported, not rejected.',
  'json-schema': 'The manifest must validate against spec/schema/skill.schema.json (the strict reading).',
  injection: 'Phrases that try to steer the model against its user; review them.',
  'visible-text': 'No invisible characters, NUL bytes or symlinks: a reviewer must be able to see every instruction.',
  'dynamic-context': 'No !`command` substitutions: they run when the skill loads, before anyone reads the output.',
  'remote-exec': 'No download-and-execute pipelines anywhere in the skill.',
  secrets: 'No live credentials anywhere in the skill.',
};

/**
 * SARIF 2.1.0 for code scanning. `fileUri` maps a skill report and a skill-relative
 * file to the URI the scanner should attach the result to (relative to the repository).
 */
export function renderSarif(
  reports: readonly SkillReport[],
  version: string,
  fileUri: (report: SkillReport, file: string) => string,
): string {
  const results: unknown[] = [];
  const ruleIds = new Set<string>();
  for (const r of reports) {
    for (const c of r.checks) {
      if (c.status === 'pass') continue;
      ruleIds.add(c.id);
      const locs = c.locations?.length
        ? c.locations.map((l) => ({
            physicalLocation: {
              artifactLocation: { uri: fileUri(r, l.file) },
              region: { startLine: l.line, startColumn: l.column, endLine: l.endLine, endColumn: l.endColumn },
            },
          }))
        : [{ physicalLocation: { artifactLocation: { uri: fileUri(r, 'SKILL.md') }, region: { startLine: 1 } } }];
      results.push({
        ruleId: c.id,
        level: c.status === 'fail' ? 'error' : 'warning',
        message: { text: `${r.name}: ${c.id}${c.detail ? ` — ${c.detail}` : ''}` },
        locations: locs,
      });
    }
  }
  const rules = [...ruleIds].sort().map((id) => ({
    id,
    name: id,
    shortDescription: { text: `skillsmith ${id} check` },
    fullDescription: { text: HELP[id as CheckId] ?? `The skillsmith "${id}" check.` },
    properties: { tags: ['skillsmith', 'agent-skills'] },
  }));
  return sarifLog(version, rules, results);
}

/**
 * The one SARIF 2.1.0 envelope every report (lint, verify) is written in: one run by
 * `skillsmith`, pretty-printed with a final newline.
 */
export function sarifLog(version: string, rules: readonly unknown[], results: readonly unknown[]): string {
  const doc = {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'skillsmith', version, rules } }, columnKind: 'utf16CodeUnits', results }],
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
