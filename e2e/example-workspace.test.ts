/**
 * The example workspace the app opens on first run: five realistic skills whose lint
 * verdicts are part of the design (two clean, two warnings, one failure), loaded by the
 * same CLI the app's scan uses.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../tests/support/paths';

const workspace = join(repoRoot, 'examples/workspace');

describe('examples/workspace', () => {
  it('has the project files and the five skills', () => {
    for (const f of [
      'kitbash.toml',
      'kitbash.lock',
      '.kitbash/skills/prereview/skill.toml',
      '.kitbash/skills/prereview/SKILL.md',
      '.kitbash/skills/prereview/prompts/checklist.md',
      '.kitbash/skills/prereview/scripts/check.sh',
      '.kitbash/skills/prereview/evals/basic.eval.yaml',
      '.kitbash/skills/prereview/evals/review.eval.yaml',
      '.kitbash/skills/prereview/evals/trigger.eval.yaml',
      '.kitbash/skills/prereview/skill.spec.yml',
      'tools/stand-in-agent.mjs',
      '.kitbash/skills/release-notes/prompts/sections.md',
      '.kitbash/skills/api-style/skill.toml',
      '.kitbash/skills/dependency-audit/scripts/audit.sh',
      '.kitbash/skills/tidy-commits/SKILL.md',
    ]) {
      expect(existsSync(join(workspace, f)), f).toBe(true);
    }
  });

  it('every skill loads (valid KSF) and the findings are the designed ones', () => {
    const r = runCli(['lint', '--json'], { cwd: workspace });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const reports = JSON.parse(r.stdout) as { name: string; checks: { id: string; status: string }[] }[];
    const verdict = Object.fromEntries(
      reports.map((s) => [s.name, s.checks.filter((c) => c.status !== 'pass').map((c) => `${c.status}:${c.id}`)]),
    );
    expect(verdict).toEqual({
      'api-style': ['warn:schema'],
      'dependency-audit': ['fail:remote-exec'],
      prereview: [],
      'release-notes': [],
      'tidy-commits': ['warn:manifest'],
    });
  });

  it('passes the static test tier for its evals', () => {
    const t = runCli(['test', 'prereview'], { cwd: workspace });
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(
      /evals — 3 eval files — static: basic\.eval\.yaml; behavioral: review\.eval\.yaml; trigger: trigger\.eval\.yaml; 2 audit\/behavioral\/trigger evals need a runner — run them with "skillsmith eval"/,
    );
  });

  it('carries a SkillSpec the Playground opens on, valid and passing its own tests', () => {
    const spec = '.kitbash/skills/prereview/skill.spec.yml';
    expect(runCli(['spec', 'validate', spec], { cwd: workspace })).toMatchObject({
      code: 0,
      stdout: `ok: ${spec} is example.prereview (skillspec/v0)\n`,
    });
    expect(runCli(['spec', 'test', spec], { cwd: workspace })).toMatchObject({
      code: 0,
      stdout: 'skillspec test: 4/4 passed\n',
    });
  });
});
