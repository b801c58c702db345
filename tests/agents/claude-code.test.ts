/**
 * The real Claude Code (the version pinned in tooling/agents) in a project Skillsmith
 * compiled, its model the scripted API: what it lists to its model is what compile
 * delivered, and a delivered skill loads, writes and runs its script for real.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costsOf, loadProject } from '../../main/services/dashboard/report';
import { readTranscript } from '../../shared/evals/transcript';
import { claudeCode } from '../../shared/targets/claude-code';
import { tempDir } from '../sandbox/helpers';
import { agentPath, claudeArgv, claudeEnv, claudeListing } from './harness/claude';
import { agentsOrSkip, compiledProject, DELIVERY, networkForSuite, runAgent } from './harness/suite';

const bins = agentsOrSkip();

describe.skipIf(!bins)('the real Claude Code', () => {
  const net = networkForSuite();
  const compiled = (skills: Parameters<typeof compiledProject>[1]): string => compiledProject(claudeCode.id, skills);
  const run = (root: string, script: readonly unknown[], task = 'Help me with this repository.') =>
    runAgent({
      net: net(),
      dir: tempDir('skillsmith-agent-run-'),
      cwd: root,
      script,
      argv: () => claudeArgv(bins!.claude, task),
      env: (url: string, home: string) => ({ ...claudeEnv(url, home), PATH: agentPath(true) }),
    });

  it('lists every skill compile delivered, with its description, and nothing else of the project', async () => {
    // What Claude Code lists on its own (bundled skills), from a project with no skill.
    const empty = await run(compiled({}), [{ text: 'Nothing to do.' }]);
    expect(empty.code, empty.stderr).toBe(0);
    const builtIn = new Set((claudeListing(empty.turns[0]!) ?? []).map((s) => s.name));
    const root = compiled(DELIVERY.skills);
    const r = await run(root, [{ text: 'Nothing to do.' }]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.turns.length).toBe(1);
    const listed = claudeListing(r.turns[0]!);
    expect(listed, 'Claude Code sent no skill listing').toBeDefined();
    expect(listed!.filter((s) => !builtIn.has(s.name))).toEqual(DELIVERY.listed);
  });

  it('loads a delivered skill with its Skill tool, writes a file and runs the bundled script', async () => {
    const root = compiled({
      greeter: {
        description: 'Greets the team. Use when asked for a greeting.',
        body: '# greeter\n\nWrite GREETING.txt, then run scripts/stamp.sh.\n',
        // Its script runs through the script guard (SPEC D200): in the sandbox, with the write it declares.
        toml: '[targets]\nrequires = ["scripts"]\n\n[permissions]\nwrite = true',
        scripts: { 'stamp.sh': '#!/bin/sh\necho "stamped by $(basename "$0")" > notes/STAMP.txt\necho stamp-ran\n' },
      },
    });
    mkdirSync(join(root, 'notes'));
    const r = await run(root, [
      { tool: 'Skill', input: { skill: 'greeter' } },
      { tool: 'Write', input: { file_path: join(root, 'GREETING.txt'), content: 'hello team\n' } },
      { tool: 'Bash', input: { command: 'sh .claude/skills/greeter/scripts/stamp.sh', description: 'stamp' } },
      { text: 'Greeted and stamped.' },
    ]);
    expect(r.code, r.stderr).toBe(0);
    // The skill's body reached the model after the Skill call: it was loaded, not just named.
    const afterSkill = JSON.stringify(r.turns[1]!.body.messages);
    expect(afterSkill).toContain('Write GREETING.txt, then run scripts/stamp.sh.');
    expect(readFileSync(join(root, 'GREETING.txt'), 'utf8')).toBe('hello team\n');
    expect(readFileSync(join(root, 'notes', 'STAMP.txt'), 'utf8')).toBe('stamped by stamp.sh\n');
    expect(JSON.stringify(r.turns[3]!.body.messages)).toContain('stamp-ran');
  });

  it("the Costs card's listing prediction is what it sent on a project of 150 skills", async () => {
    // Descriptions of 140–200 characters (KSF allows up to 200) in a fixed shuffled order, long
    // enough to pass the budget, so a model that counted wrongly or kept a plain prefix would
    // name other skills.
    const skills: Record<string, { description: string }> = {};
    for (let i = 1; i <= 150; i++) {
      const len = 140 + ((i * 73) % 61);
      const text = `Skill ${i} handles one recurring chore of the team; use it when that chore comes up again. `;
      skills[`recurring-team-chore-${String(i).padStart(3, '0')}`] = {
        description: text.repeat(4).slice(0, len).trimEnd(),
      };
    }
    const root = compiled(skills);
    const r = await run(root, [{ text: 'Nothing to do.' }]);
    expect(r.code, r.stderr).toBe(0);
    const listed = (claudeListing(r.turns[0]!) ?? []).filter((s) => s.name in skills);
    // Every skill is listed, by name at least, and a listed description is the whole one.
    expect(listed.map((s) => s.name).sort()).toEqual(Object.keys(skills).sort());
    for (const s of listed) if (s.description !== undefined) expect(s.description).toBe(skills[s.name]!.description);
    const sentNameOnly = listed.filter((s) => s.description === undefined).map((s) => s.name);
    expect(sentNameOnly.length, 'the listing fits: the test no longer measures the budget').toBeGreaterThan(10);

    const card = costsOf(loadProject(root)).listings.find((l) => l.target === claudeCode.id)!;
    expect(card.dropped).toEqual([]);
    expect(card.nameOnly).toEqual(sentNameOnly);
  });

  describe('transcript verdicts on what it really printed', () => {
    const error = (status: number, type: string) => ({
      error: { status, body: { type: 'error', error: { type, message: `scripted ${type}` } } },
    });
    // Claude Code retries a failed request; with retries off one failing step is the whole run.
    const verdict = async (script: readonly unknown[]) => {
      const root = compiled({ greeter: { description: 'Greets the team. Use when asked for a greeting.' } });
      const r = await runAgent({
        net: net(),
        dir: tempDir('skillsmith-agent-run-'),
        cwd: root,
        script,
        argv: () => claudeArgv(bins!.claude, 'Greet the team.'),
        env: (url, home) => ({ ...claudeEnv(url, home), CLAUDE_CODE_MAX_RETRIES: '0' }),
      });
      return { code: r.code, t: readTranscript('claude-code', r.stdout, 'greeter') };
    };

    it.each([
      ['loaded by name', 'yes', 'yes', [{ tool: 'Skill', input: { skill: 'greeter' } }, { text: 'ok' }]],
      ['as /name, which it accepts', 'yes', 'yes', [{ tool: 'Skill', input: { skill: '/greeter' } }, { text: 'ok' }]],
      [
        'an unknown skill: the call fails',
        'no',
        'yes',
        [{ tool: 'Skill', input: { skill: 'greeter-x' } }, { text: 'ok' }],
      ],
      ['no skill used', 'no', 'yes', [{ text: 'Hello, team.' }]],
      ['an auth error', 'unknown', 'no', [error(401, 'authentication_error')]],
      ['an API error', 'unknown', 'no', [error(500, 'api_error')]],
      ['killed mid-stream', 'unknown', 'no', [{ cut: true }]],
    ] as const)('%s → loaded %s, finished %s', async (_, loaded, finished, script) => {
      const { t } = await verdict(script);
      expect([t.skillLoaded, t.finished]).toEqual([loaded, finished]);
    });
  });
});
