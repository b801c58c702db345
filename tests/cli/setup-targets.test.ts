/**
 * Set-up chooses its targets (spec D220): `init` and `import --write` write `[project].targets`
 * from `--targets`, else from the agents detected, and refuse rather than fall back to the
 * AGENTS.md floor; each choice is priced per session for the skills at hand.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, expectNoStack, requireBuiltCli, tempProject, writeFiles } from './helpers';

beforeAll(requireBuiltCli);
afterAll(cleanup);

const config = (root: string) => readFileSync(join(root, 'kitbash.toml'), 'utf8');
const targetsLine = (root: string) => /^targets = .*$/m.exec(config(root))?.[0];

const SKILL = {
  '.kitbash/skills/house-style/SKILL.md': `---\nname: house-style\ndescription: The house style for this code.\n---\n# House style\n\n${'Prefer small functions with clear names. '.repeat(60)}\n`,
};

describe('init', () => {
  it('--targets writes exactly the chosen targets, in emit order, and prices every choice', () => {
    const p = tempProject();
    writeFiles(p, SKILL);
    const r = cli(p, 'init', '--targets', 'aider,claude-code');
    expect(r.code).toBe(0);
    expect(targetsLine(p)).toBe('targets = ["claude-code", "aider"]');
    expect(r.stdout).toContain('standing cost per session of the 1 skill here, per target:');
    const tokens = (id: string) => Number(new RegExp(`^  ${id} +~(\\d+) tok`, 'm').exec(r.stdout)?.[1]);
    // Eager AGENTS.md carries the whole body every session; a lazy skill folder only the description.
    expect(tokens('agentsmd')).toBeGreaterThan(400);
    expect(tokens('claude-code')).toBeLessThan(30);
    expect(r.stdout).toContain('created kitbash.toml (targets: claude-code, aider)');
  });

  it('without --targets, off a terminal: the agents detected here, never the AGENTS.md floor', () => {
    const p = tempProject();
    writeFiles(p, { '.cursor/rules/.keep': '', '.claude/settings.json': '{}\n' });
    const r = cli(p, 'init');
    expect(r.code).toBe(0);
    expect(targetsLine(p)).toBe('targets = ["claude-code", "cursor"]');
    expect(r.stdout).toContain('no --targets given: using the agents detected here: claude-code, cursor');
  });

  it('without --targets and no agent detected: refused in one line listing the choices; nothing written', () => {
    const p = tempProject();
    const r = cli(p, 'init');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^skillsmith init: no agent detected here .* choose with --targets <a,b> \(choices: claude-code, cursor, agents, zed, copilot, cline, windsurf, gemini, aider, agentsmd, agent-plugins\)$/,
      ),
    ]);
    expectNoStack(r);
    expect(existsSync(join(p, 'kitbash.toml'))).toBe(false);
    expect(existsSync(join(p, '.kitbash'))).toBe(false);
  });

  it('an unknown target is refused by name; nothing written', () => {
    const p = tempProject();
    const r = cli(p, 'init', '--targets', 'claude-code,emacs');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--targets: unknown target emacs \(known: claude-code, /);
    expect(existsSync(join(p, 'kitbash.toml'))).toBe(false);
  });

  it('an existing kitbash.toml is left alone, whatever --targets says', () => {
    const p = tempProject();
    writeFiles(p, { 'kitbash.toml': '# mine\n' });
    const r = cli(p, 'init', '--targets', 'cursor');
    expect(r.code).toBe(0);
    expect(config(p)).toBe('# mine\n');
  });
});

describe('import --write', () => {
  const RULES = { 'CLAUDE.md': '# Rules\n\nUse tabs.\n' };

  it('--targets is written into the kitbash.toml it creates', () => {
    const p = tempProject();
    writeFiles(p, RULES);
    const r = cli(p, 'import', '--write', '--targets', 'cursor', '--name', 'house-rules');
    expect(r.code).toBe(0);
    expect(targetsLine(p)).toBe('targets = ["cursor"]');
    expect(r.stdout).toContain('standing cost per session of the 1 skill here, per target:');
  });

  it('without --targets: the agents whose files are imported, not the floor alone', () => {
    const p = tempProject();
    writeFiles(p, RULES);
    const r = cli(p, 'import', '--write', '--name', 'house-rules');
    expect(r.code).toBe(0);
    expect(targetsLine(p)).toBe('targets = ["claude-code"]');
  });

  it('a bad --targets stops before anything is written', () => {
    const p = tempProject();
    writeFiles(p, RULES);
    const r = cli(p, 'import', '--write', '--targets', 'nope');
    expect(r.code).toBe(2);
    expect(existsSync(join(p, 'kitbash.toml'))).toBe(false);
    expect(existsSync(join(p, '.kitbash'))).toBe(false);
  });
});
