/**
 * The example workspace the app opens by default stays clean under the CLI: `lint` and
 * `test` pass, and the only warning is the expected one on the bare (unmanifested)
 * tidy-commits skill — so `--strict`, which fails on warnings, exits 1.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../tests/support/paths';

const workspace = join(repoRoot, 'examples/workspace');

describe('examples/workspace', () => {
  it('has the project file and both skills', () => {
    for (const f of [
      'kitbash.toml',
      '.kitbash/skills/prereview/skill.toml',
      '.kitbash/skills/prereview/SKILL.md',
      '.kitbash/skills/prereview/prompts/checklist.md',
      '.kitbash/skills/prereview/scripts/check.sh',
      '.kitbash/skills/prereview/evals/basic.eval.yaml',
      '.kitbash/skills/tidy-commits/SKILL.md',
    ]) {
      expect(existsSync(join(workspace, f)), f).toBe(true);
    }
  });

  it('lints with no failures and only the unmanifested warning', () => {
    const r = runCli(['lint'], { cwd: workspace });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ prereview/);
    expect(r.stdout).toMatch(/⚠ tidy-commits\n\s+⚠ manifest — unmanifested/);
    expect(r.stdout).toMatch(/linted 2 skill\(s\) · 0 failure\(s\) · 1 warning\(s\)/);
  });

  it('passes the JSON Schema check and the static test tier', () => {
    expect(runCli(['lint', '--schema'], { cwd: workspace }).code).toBe(0);
    const t = runCli(['test'], { cwd: workspace });
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/evals — 1 eval file\(s\) — static: basic\.eval\.yaml/);
  });

  it('fails --strict on exactly that warning', () => {
    const r = runCli(['lint', '--strict'], { cwd: workspace });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/0 failure\(s\) · 1 warning\(s\)/);
  });
});
