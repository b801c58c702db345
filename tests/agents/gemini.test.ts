/**
 * The real Gemini CLI (the version pinned in tooling/agents) in a project Skillsmith compiled,
 * run with the eval preset's command, its model the scripted API: what it lists to its model
 * is what compile delivered (and what the Costs card predicts), a delivered skill loads,
 * writes and runs its script for real, and the eval transcript reader's verdicts hold on
 * the CLI's real stream-json output, including its failures.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../shared/evals/transcript';
import { gemini } from '../../shared/targets/gemini';
import { costsOf, loadProject } from '../../main/services/dashboard/report';
import { tempDir } from '../sandbox/helpers';
import { geminiArgv, geminiEnv, geminiListing, systemTextOf } from './harness/gemini';
import { agentsOrSkip, compileFor, compiledProject, DELIVERY, networkForSuite, runAgent } from './harness/suite';

const bins = agentsOrSkip();

describe.skipIf(!bins)('the real Gemini CLI', () => {
  const net = networkForSuite();
  const compile = (root: string): string => compileFor(root, gemini.id);
  const compiled = (skills: Parameters<typeof compiledProject>[1]): string => compiledProject(gemini.id, skills);
  const run = (
    root: string,
    script: readonly unknown[],
    opts: { task?: string; argv?: (argv: string[]) => string[] } = {},
  ) =>
    runAgent({
      net: net(),
      dir: tempDir('skillsmith-agent-run-'),
      cwd: root,
      script,
      argv: () => (opts.argv ?? ((a) => a))(geminiArgv(bins!.gemini, opts.task ?? 'Help me with this repository.')),
      env: geminiEnv,
    });
  const byName = <T extends { name: string }>(xs: readonly T[]): T[] =>
    [...xs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  /** The skills Gemini lists on its own (bundled with the CLI), from a project with no skill. */
  let builtIn: Set<string> | undefined;
  const builtIns = async (): Promise<Set<string>> => {
    if (builtIn) return builtIn;
    const empty = await run(compiled({}), [{ text: 'Nothing to do.' }]);
    expect(empty.code, empty.stderr).toBe(0);
    builtIn = new Set((geminiListing(empty.turns[0]!) ?? []).map((s) => s.name));
    return builtIn;
  };

  const greeter = {
    description: 'Greets the team. Use when asked for a greeting.',
    body: '# greeter\n\nWrite GREETING.txt, then run scripts/stamp.sh.\n',
    toml: '[targets]\nrequires = ["scripts"]',
    scripts: { 'stamp.sh': '#!/bin/sh\necho "stamped by $(basename "$0")" > STAMP.txt\necho stamp-ran\n' },
  };

  it('lists every skill compile delivered, with its description, in YOLO mode, and nothing else of the project', async () => {
    const own = await builtIns();
    const root = compiled(DELIVERY.skills);
    const r = await run(root, [{ text: 'Nothing to do.' }]);
    // Exit 0 rather than 55: the preset's --skip-trust lets -p run in a fresh folder.
    expect(r.code, r.stderr).toBe(0);
    expect(r.turns.length).toBe(1);
    // --yolo held: an untrusted folder would have been put back to "default" approval.
    expect(systemTextOf(r.turns[0]!.body)).toContain('operating in **YOLO** mode');
    const listed = geminiListing(r.turns[0]!);
    expect(listed, 'Gemini CLI sent no skill listing').toBeDefined();
    expect(byName(listed!.filter((s) => !own.has(s.name)))).toEqual(DELIVERY.listed);
  });

  it('loads a delivered skill with activate_skill, writes a file and runs the bundled script', async () => {
    const root = compiled({ greeter });
    const r = await run(root, [
      { tool: 'activate_skill', input: { name: 'greeter' } },
      { tool: 'write_file', input: { file_path: join(root, 'GREETING.txt'), content: 'hello team\n' } },
      {
        tool: 'run_shell_command',
        input: { command: 'sh .gemini/skills/greeter/scripts/stamp.sh', description: 'stamp' },
      },
      { text: 'Greeted and stamped.' },
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.turns.length).toBe(4);
    // The skill's body reached the model after activate_skill: it was loaded, not just named.
    expect(JSON.stringify(r.turns[1]!.body.contents)).toContain('Write GREETING.txt, then run scripts/stamp.sh.');
    expect(readFileSync(join(root, 'GREETING.txt'), 'utf8')).toBe('hello team\n');
    expect(readFileSync(join(root, 'STAMP.txt'), 'utf8')).toBe('stamped by stamp.sh\n');
    expect(JSON.stringify(r.turns[3]!.body.contents)).toContain('stamp-ran');
    // What `skillsmith eval` reads from the same run.
    const t = readTranscript('gemini', r.stdout, 'greeter');
    expect(t.skillLoaded).toBe('yes');
    expect(t.tools).toEqual(['activate_skill', 'write_file', 'run_shell_command']);
    expect(t.output).toBe('Greeted and stamped.');
    expect(readTranscript('gemini', r.stdout, 'other-skill').skillLoaded).toBe('no');
  });

  describe('transcript verdicts on its real output', () => {
    const verdict = async (script: readonly unknown[], argv?: (a: string[]) => string[]) => {
      const r = await run(compiled({ greeter }), script, argv ? { argv } : {});
      return { r, t: readTranscript('gemini', r.stdout, 'greeter') };
    };
    const apiError = (status: number, name: string) => ({
      error: { status, body: { error: { code: status, message: `scripted ${status}`, status: name } } },
    });

    it('an activation the CLI refuses is not a load: "no" once the run completes', async () => {
      // additionalProperties is false in activate_skill's schema: the call names the skill, and fails.
      const { r, t } = await verdict([
        { tool: 'activate_skill', input: { name: 'greeter', force: true } },
        { text: 'ok.' },
      ]);
      expect(r.code, r.stderr).toBe(0);
      const events = r.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const use = events.find((e) => e.type === 'tool_use' && e.tool_name === 'activate_skill');
      expect(use?.parameters).toEqual({ name: 'greeter', force: true });
      expect(events.find((e) => e.type === 'tool_result' && e.tool_id === use?.tool_id)?.status).toBe('error');
      expect(JSON.stringify(r.turns[1]!.body.contents)).not.toContain('Write GREETING.txt');
      expect(t.skillLoaded).toBe('no');
    });

    it('activating a skill it does not list is not a load of that name', async () => {
      const r = await run(compiled({ greeter }), [
        { tool: 'activate_skill', input: { name: 'nope' } },
        { text: 'ok.' },
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('"status":"error"');
      expect(readTranscript('gemini', r.stdout, 'nope').skillLoaded).toBe('no');
    });

    it.each([
      ['an auth error (401)', [apiError(401, 'UNAUTHENTICATED')], 401],
      ['an API error (500)', [apiError(500, 'INTERNAL')], 500],
      ['a stream cut mid-answer', [{ cut: true }], undefined],
    ])('%s is "unknown", never "no"', async (_, script, status) => {
      const { r, t } = await verdict(script);
      expect(r.code).not.toBe(0);
      expect(r.turns.length).toBe(1);
      expect(r.stdout).toContain('"type":"result"');
      expect(r.stdout).toContain('"status":"error"');
      if (status) expect(r.stdout).toContain(`scripted ${status}`);
      expect(t.skillLoaded).toBe('unknown');
    });

    it('without --skip-trust it exits 55 in a fresh folder before asking its model: "unknown"', async () => {
      const { r, t } = await verdict([], (a) => a.filter((x) => x !== '--skip-trust'));
      expect(r.code).toBe(55);
      expect(r.requests).toEqual([]);
      expect(r.stderr).toContain('not running in a trusted directory');
      expect(r.stderr).toContain('Approval mode overridden to "default" because the current folder is not trusted.');
      expect(t.skillLoaded).toBe('unknown');
    });
  });

  it('lists 150 skills as the Costs card predicts: nothing cut, nothing left out', async () => {
    const own = await builtIns();
    const root = tempDir('skillsmith-agent-');
    // Bare skills (SKILL.md alone), whose descriptions may run past skill.toml's 200 characters.
    for (let i = 0; i < 150; i++) {
      const name = `s-${String(i).padStart(3, '0')}`;
      const description = `Skill ${i} does a thing; use when asked for thing ${i}. `
        .repeat(100)
        .slice(0, 40 + i * 30)
        .trim();
      mkdirSync(join(root, '.kitbash', 'skills', name), { recursive: true });
      writeFileSync(
        join(root, '.kitbash', 'skills', name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`,
      );
    }
    compile(root);
    const project = loadProject(root);
    const card = costsOf(project).listings.find((l) => l.target === gemini.id);
    expect(card, 'the Costs card has no Gemini listing').toBeDefined();
    const predicted = project.skills
      .map((s) => ({ name: s.manifest.skill.name, description: s.manifest.skill.description }))
      .filter((s) => !card!.dropped.includes(s.name))
      .map((s) =>
        card!.truncated.includes(s.name)
          ? { ...s, description: [...s.description].slice(0, card!.perSkillChars).join('') }
          : s,
      );
    expect(predicted).toHaveLength(150);
    expect(Math.max(...predicted.map((s) => s.description.length))).toBe(4509);

    const r = await run(root, [{ text: 'Nothing to do.' }]);
    expect(r.code, r.stderr).toBe(0);
    const listed = geminiListing(r.turns[0]!)!.filter((s) => !own.has(s.name));
    expect(byName(listed)).toEqual(byName(predicted));
    expect(listed.reduce((n, s) => n + (s.description ?? '').length, 0)).toBe(341_208);
  });
});
