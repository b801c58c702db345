/**
 * Costs are priced as compile writes (spec D221): a skill the bounded AGENTS.md has no room
 * for is not in it, so the Costs view and the dashboard must not charge its readers for it.
 * Checked against the AGENTS.md that `compile` actually writes to disk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { estimateTokens } from '../../shared/ksf/tokens';
import { costsOf, loadProject } from '../../main/services/dashboard/report';
import { projectStatus } from '../../main/services/workspace/status';
import { cleanupTemps, cli, temp, write } from '../workspace/helpers';

afterAll(cleanupTemps);

/** 120 bare skills of about 4 KB each: about 480 KB if AGENTS.md held them all. */
function bigProject(): string {
  const root = temp();
  const files: Record<string, string> = { 'kitbash.toml': '[project]\ntargets = ["agentsmd"]\n' };
  for (let i = 0; i < 120; i++) {
    const name = `s-${String(i).padStart(3, '0')}`;
    const body = `Follow the house style for part ${i} of the code. `.repeat(80);
    files[`.kitbash/skills/${name}/SKILL.md`] =
      `---\nname: ${name}\ndescription: House style, part ${i}.\n---\n# Skill ${i}\n\n${body}\n`;
  }
  write(root, files);
  return root;
}

describe('standing cost of a bounded always-loaded file', () => {
  it('charges only the skills AGENTS.md holds, and names why the others are not there', async () => {
    const root = bigProject();
    const costs = costsOf(loadProject(root));
    const charged = costs.skills.filter((s) => (s.perTarget['agentsmd'] ?? 0) > 0);
    const left = costs.skills.filter((s) => s.notWritten?.['agentsmd']);
    expect(charged.length).toBeGreaterThan(0);
    expect(left.length).toBeGreaterThan(0);
    expect(charged.length + left.length).toBe(120);
    for (const s of left) {
      expect(s.perTarget['agentsmd']).toBe(0);
      expect(s.notWritten!['agentsmd']).toMatch(/^not written to AGENTS\.md: with every skill it would be \d+ bytes/);
    }

    const r = await cli(root, 'compile');
    expect(r.code, r.stderr).toBe(0);
    const written = readFileSync(join(root, 'AGENTS.md'), 'utf8');
    const total = charged.reduce((n, s) => n + s.perTarget['agentsmd']!, 0);
    // The file also holds its header and the user's part: the sections are most of it, never more.
    expect(total).toBeLessThanOrEqual(estimateTokens(written));
    expect(total).toBeGreaterThan(estimateTokens(written) * 0.9);
    for (const s of charged) expect(written).toContain(`## Skill: ${s.skill}`);
    for (const s of left) expect(written).not.toContain(`## Skill: ${s.skill}\n`);

    // The dashboard's per-skill figures agree with the Costs view's.
    const status = projectStatus(root);
    for (const s of status.skills) {
      const tokens = s.targetCost?.find((c) => c.target === 'agentsmd')?.tokens;
      expect(tokens, s.name).toBe(costs.skills.find((c) => c.skill === s.name)!.perTarget['agentsmd']);
    }
  });
});
