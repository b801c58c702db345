/** The compile verbs through the built binary, as a user runs them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cleanSkill, requireBuiltCli, tempProject, writeFiles } from '../cli/helpers';
import { readTree } from './fixtures';

beforeAll(() => requireBuiltCli());
afterAll(() => cleanup());

function project(): string {
  const root = tempProject('skillsmith-compile-cli-');
  cleanSkill(root, '.kitbash/skills/demo', 'demo');
  cleanSkill(root, '.kitbash/skills/tidy--x', 'tidy--x');
  writeFiles(root, { '.zed/.keep': '', '.claude/.keep': '' });
  return root;
}

describe('skillsmith compile', () => {
  it('--dry-run prints every planned operation and writes nothing', () => {
    const root = project();
    const before = readTree(root);
    const r = cli(root, 'compile', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('would write .claude/skills/demo/SKILL.md\n');
    expect(r.stdout).toContain('would write .agents/skills/tidy--x/SKILL.md\n');
    expect(r.stdout).toContain('would merge AGENTS.md (marked sections)\n');
    expect(r.stdout).toContain('(dry run) would have compiled 2 skills for 3 targets');
    expect(readTree(root)).toEqual(before);
  });

  it('writes, then a second run changes nothing; --strict fails on warnings', () => {
    const root = project();
    const first = cli(root, 'compile');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('→ .claude/skills/demo/SKILL.md\n');
    expect(first.stdout).toContain('⚠ tidy--x → zed: name must match ^[a-z0-9]+(-[a-z0-9]+)*$');
    const tree = readTree(root);
    const second = cli(root, 'compile', '--strict');
    expect(second.stdout).not.toMatch(/^→ /m);
    expect(second.stdout).toContain('(5 files already up to date)');
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('--strict: failing on 1 warning\n');
    expect(readTree(root)).toEqual(tree);
  });

  it('an unknown [project].targets id exits 1 naming the known ones; --json prints the plan', () => {
    const root = project();
    writeFiles(root, { 'kitbash.toml': '[project]\ntargets = ["vim"]\n' });
    const r = cli(root, 'compile');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '✗ unknown target(s) in kitbash.toml: vim (known: claude-code, cursor, agents, zed, copilot, cline, windsurf, gemini, aider, agentsmd, agent-plugins)',
    );
    writeFiles(root, { 'kitbash.toml': '[project]\ntargets = ["cursor"]\n' });
    const j = cli(root, 'compile', '--json', '--dry-run');
    const plan = JSON.parse(j.stdout) as { targets: string[]; write: { path: string }[]; dryRun: boolean };
    expect(plan.targets).toEqual(['cursor']);
    expect(plan.write.map((w) => w.path)).toEqual(['.cursor/rules/demo.mdc', '.cursor/rules/tidy--x.mdc']);
    expect(plan.dryRun).toBe(true);
  });
});

describe('skillsmith matrix, explain, preview', () => {
  it('matrix --json has the documented shape and an unsupported cell', () => {
    const r = cli(project(), 'matrix', '--json');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as {
      skills: string[];
      targets: string[];
      cells: { skill: string; target: string; status: string; reasons: { code: string; message: string }[] }[];
    };
    expect(m.skills).toEqual(['demo', 'tidy--x']);
    expect(m.targets).toHaveLength(11);
    expect(m.cells).toHaveLength(22);
    expect(m.cells.find((c) => c.skill === 'tidy--x' && c.target === 'zed')).toMatchObject({
      status: 'unsupported',
      reasons: [{ code: 'zed-name' }],
    });
  });

  it('explain prints the cell and its reasons; an unknown target is a usage error', () => {
    const root = project();
    const r = cli(root, 'explain', 'tidy--x', 'zed');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('✗ tidy--x → zed: unsupported');
    expect(r.stdout).toContain('zed-name: tidy--x → zed: name must match');
    const bad = cli(root, 'explain', 'demo', 'emacs');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown target "emacs"');
  });

  it('preview shows each target with its costs and writes nothing', () => {
    const root = project();
    const before = readTree(root);
    const r = cli(root, 'preview', 'demo');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/─── claude-code \[lazy\] ~\d+ tok standing \(description\) · ~\d+ tok when loaded ───/);
    expect(r.stdout).toMatch(/─── agentsmd \[eager\] ~\d+ tok standing \(emitted\)/);
    expect(r.stdout).toContain('  → .agents/skills/demo/SKILL.md');
    expect(readTree(root)).toEqual(before);
  });
});
