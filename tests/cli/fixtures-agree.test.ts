/** The human report and `--json` agree on every check, for a spread of KSF conformance fixtures. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadKsfFixtures } from '../support/ksf-fixtures';
import { repoRoot, runCli } from '../support/paths';
import { requireBuiltCli, humanChecks, parseJson } from './helpers';

const PICK = [
  'prereview-complete',
  'bare-with-frontmatter',
  'd1-script-curl-sh',
  'd3-placeholder-before-real-key',
  'd11-unknown-key-in-known-table',
  'manifest-bad-name',
  'mcp-hostile',
  'references-missing-prompt',
  'schema-enum-values',
  'secrets-ai-keys',
  'visible-text-bidi',
  'injection-phrases',
  'gate-no-verdict',
];
const fixtures = loadKsfFixtures().filter((f) => PICK.includes(f.name));

beforeAll(() => {
  requireBuiltCli();
});

describe('lint and lint --json agree (spec/conformance/ksf)', () => {
  it('found every picked fixture', () => {
    expect(fixtures.map((f) => f.name).sort()).toEqual([...PICK].sort());
  });

  for (const f of fixtures) {
    it(f.name, () => {
      const rel = f.skillPath
        .slice(repoRoot.length + 1)
        .split('\\')
        .join('/');
      const human = runCli(['lint', rel]);
      const json = runCli(['lint', '--json', rel]);
      expect(json.code).toBe(human.code);
      expect(human.code).toBe(f.expected.skillsmith.exit);
      const [skill] = parseJson(json);
      const fromHuman = humanChecks(human.stdout);
      expect(fromHuman.map((c) => [c.id, c.status])).toEqual(skill!.checks.map((c) => [c.id, c.status]));
      expect(fromHuman.map((c) => c.detail)).toEqual(skill!.checks.map((c) => c.detail.split('\n')[0]));
      expect(new Set(fromHuman.map((c) => c.skill))).toEqual(new Set([skill!.name]));
      expect(Object.fromEntries(skill!.checks.map((c) => [c.id, c.status]))).toEqual(f.expected.skillsmith.checks);
      expect(skill!.path).toBe(rel);
      const totals = human.stdout.trimEnd().split('\n').pop();
      const failures = skill!.checks.filter((c) => c.status === 'fail').length;
      const warnings = skill!.checks.filter((c) => c.status === 'warn').length;
      expect(totals).toBe(`linted 1 skill(s) · ${failures} failure(s) · ${warnings} warning(s)`);
    });
  }
});
