/**
 * Every agent either has a script guard or says why not (issue 38 item 3: "document the
 * equivalent or its absence"), and the matrix cells follow from that and the policy switch.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enforcementCells } from '../../shared/targets/enforcement';
import { TARGETS } from '../../shared/targets/registry';

describe('script guards across agents', () => {
  it('each target has a guard or a documented absence, never both', () => {
    for (const t of TARGETS) {
      expect(Boolean(t.scriptGuard) !== Boolean(t.guardAbsence?.trim()), t.id).toBe(true);
      if (t.scriptGuard) expect(t.skillDir, `${t.id}: a guard needs a skill folder to guard`).toBeDefined();
    }
  });

  it('cells: enforced only with a guard and the switch on; tools always advisory; the reason said', () => {
    const on = enforcementCells(TARGETS, true);
    const off = enforcementCells(TARGETS, false);
    expect(on).toHaveLength(TARGETS.length * 4);
    for (const c of on) {
      const t = TARGETS.find((x) => x.id === c.target)!;
      expect(c.status, `${c.target} ${c.permission}`).toBe(
        t.scriptGuard && c.permission !== 'tools' ? 'enforced' : 'advisory',
      );
      expect(c.why.length).toBeGreaterThan(20);
      if (!t.scriptGuard && c.permission !== 'tools') expect(c.why).toContain(t.guardAbsence!);
    }
    expect(off.every((c) => c.status === 'advisory')).toBe(true);
    expect(
      off.find((c) => c.permission === 'network' && TARGETS.find((t) => t.id === c.target)!.scriptGuard)!.why,
    ).toMatch(/enforce_in_agent = false/);
  });

  it('without Skillsmith, the hook refuses a guarded folder under any case and runs the rest', () => {
    const claude = TARGETS.find((t) => t.scriptGuard?.settings === '.claude/settings.json')!;
    const merged = claude.scriptGuard!.merge(undefined, ['audit']);
    if (!('content' in merged) || merged.content === undefined) throw new Error('no settings written');
    const hook = JSON.parse(merged.content).hooks.PreToolUse[0].hooks[0].command as string;
    // No skillsmith on PATH and none in the project: the shell text alone decides.
    const project = mkdtempSync(join(tmpdir(), 'skillsmith-hook-'));
    const run = (command: string) =>
      spawnSync('sh', ['-c', hook], {
        input: JSON.stringify({ tool_name: 'Bash', tool_input: { command } }),
        env: { PATH: '/usr/bin:/bin', CLAUDE_PROJECT_DIR: project },
        encoding: 'utf8',
      }).status;
    for (const cmd of ['sh .claude/skills/audit/scripts/a.sh', 'sh .CLAUDE/SKILLS/Audit/scripts/a.sh'])
      expect(run(cmd), cmd).toBe(2);
    expect(run('npm test')).toBe(0);
    expect(run('sh .claude/skills/notes/scripts/a.sh')).toBe(0);
  });
});
