/**
 * KSF conformance: `skillsmith lint --json <skill>` on every fixture under
 * spec/conformance/ksf/ must report exactly the expected checks and exit code.
 * Where Skillsmith deliberately differs from kitbash the fixture names the
 * difference, and each such id must be a `### D<n> — …` heading in spec/SPEC.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_IDS, isCheckId, loadKsfFixtures, specDifferenceIds, type StatusMap } from '../support/ksf-fixtures';
import { repoRoot, runCli } from '../support/paths';

const fixtures = loadKsfFixtures();

interface JsonCheck {
  id: string;
  status: string;
  detail?: unknown;
}
interface JsonSkill {
  name?: unknown;
  version?: unknown;
  path?: unknown;
  manifested?: unknown;
  checks?: unknown;
}

function lintJson(skillPath: string): { code: number; skills: JsonSkill[] } {
  const r = runCli(['lint', '--json', skillPath]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.stdout);
  } catch {
    throw new Error(
      `skillsmith lint --json did not print JSON (exit ${r.code})\nstdout: ${r.stdout.slice(0, 800)}\nstderr: ${r.stderr.slice(0, 800)}`,
    );
  }
  if (!Array.isArray(parsed)) throw new Error(`skillsmith lint --json printed ${typeof parsed}, not an array`);
  return { code: r.code, skills: parsed as JsonSkill[] };
}

describe('KSF conformance fixtures (skillsmith lint --json)', () => {
  it('has fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });

  it('every difference a fixture cites is a "### D<n> — …" heading in spec/SPEC.md', () => {
    const specPath = resolve(repoRoot, 'spec/SPEC.md');
    expect(existsSync(specPath), 'spec/SPEC.md must exist').toBe(true);
    const defined = specDifferenceIds(readFileSync(specPath, 'utf8'));
    const cited = new Map<string, string[]>();
    for (const f of fixtures) {
      for (const d of Object.values(f.expected.kitbashDiffers)) cited.set(d, [...(cited.get(d) ?? []), f.name]);
    }
    const missing = [...cited]
      .filter(([d]) => !defined.has(d))
      .map(([d, cases]) => `${d} (cited by ${cases.join(', ')})`);
    expect(missing).toEqual([]);
  });

  for (const f of fixtures) {
    it(`${f.name}: ${f.expected.title}`, () => {
      const { code, skills } = lintJson(f.skillPath);
      expect(skills, 'one object per linted skill').toHaveLength(1);
      const skill = skills[0]!;
      expect(Array.isArray(skill.checks), 'checks is an array').toBe(true);
      const checks = skill.checks as JsonCheck[];

      const ids = checks.map((c) => c.id);
      expect(new Set(ids).size, `no check id reported twice: ${ids.join(', ')}`).toBe(ids.length);
      const unknown = ids.filter((id) => !isCheckId(id));
      expect(unknown, 'only known check ids').toEqual([]);
      const canonical = CHECK_IDS.filter((id) => ids.includes(id));
      expect(ids, 'checks in the fixed order').toEqual(canonical);

      const statuses: StatusMap = {};
      for (const c of checks) if (isCheckId(c.id)) statuses[c.id] = c.status as StatusMap[typeof c.id];
      expect({ exit: code, checks: statuses }).toEqual({
        exit: f.expected.skillsmith.exit,
        checks: f.expected.skillsmith.checks,
      });

      if (f.expected.skillsmith.checks.manifest !== 'fail') {
        expect(skill.manifested, 'manifested is true exactly when skill.toml exists').toBe(
          existsSync(join(f.skillPath, 'skill.toml')),
        );
      }
    });
  }
});
