/**
 * The real Codex CLI (the version pinned in tooling/agents) in a project Skillsmith compiled
 * for the `agents` target, its model the scripted API: what it lists to its model is what
 * compile delivered, a delivered skill loads, writes and runs its script for real, the
 * eval transcript reader judges real `codex exec --json` streams, and the Costs card's
 * listing prediction for Codex is what Codex sent.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costsOf, loadProject } from '../../main/services/dashboard/report';
import { readTranscript } from '../../shared/evals/transcript';
import { agents } from '../../shared/targets/agents';
import { tempDir } from '../sandbox/helpers';
import { codexArgv, codexEnv, codexListing, inputTexts } from './harness/codex';
import { agentsOrSkip, compiledProject, DELIVERY, networkForSuite, runAgent } from './harness/suite';

const bins = agentsOrSkip();

type Skills = Parameters<typeof compiledProject>[1];

/** A project with these skills compiled for the agents target, committed as an eval trial's workspace is. */
function compiledForAgents(skills: Skills): string {
  const root = compiledProject(agents.id, skills);
  // Codex refuses to run outside a git repository; a trial workspace is one (evals/workspace.ts).
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], { cwd: root, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'compiled');
  return root;
}

const GREETER: Skills = {
  greeter: {
    description: 'Greets the team. Use when asked for a greeting.',
    body: '# greeter\n\nWrite GREETING.txt, then run scripts/stamp.sh.\n',
    toml: '[targets]\nrequires = ["scripts"]',
    scripts: { 'stamp.sh': '#!/bin/sh\necho "stamped by $(basename "$0")" > STAMP.txt\necho stamp-ran\n' },
  },
};
const BODY = 'Write GREETING.txt, then run scripts/stamp.sh.';
const sh = (cmd: string) => ({ tool: 'exec_command', input: { cmd } });
/** Codex retries a failed request and a dropped stream (about 30 requests, 25 s); enough to outlast it. */
const always = (step: unknown) => Array.from({ length: 40 }, () => step);

describe.skipIf(!bins)('the real Codex CLI', () => {
  const net = networkForSuite();

  const run = (root: string, script: readonly unknown[], opts: { model?: string | null } = {}) =>
    runAgent({
      net: net(),
      dir: tempDir('skillsmith-agent-run-'),
      cwd: root,
      script,
      argv: () => codexArgv(bins!.codex, 'Help me with this repository.'),
      env: (url, home) => codexEnv(url, home, opts),
    });

  it('lists every skill compile delivered, with its description and its .agents/skills path', async () => {
    // What Codex lists on its own (its bundled system skills), from a project with no skill.
    const empty = await run(compiledForAgents({}), [{ text: 'Nothing to do.' }]);
    expect(empty.code, empty.stderr).toBe(0);
    const builtIn = new Set((codexListing(empty.turns[0]!) ?? []).map((s) => s.name));
    expect(builtIn.size).toBeGreaterThan(0);
    const root = compiledForAgents(DELIVERY.skills);
    const r = await run(root, [{ text: 'Nothing to do.' }]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.turns.length).toBe(1);
    const listed = codexListing(r.turns[0]!);
    expect(listed, 'Codex sent no skill listing').toBeDefined();
    const ours = listed!.filter((s) => !builtIn.has(s.name));
    expect(ours.map(({ name, description }) => ({ name, description }))).toEqual(DELIVERY.listed);
    for (const s of ours) {
      expect(s.root).toBe(join(root, '.agents', 'skills'));
      expect(s.file).toMatch(new RegExp(`^r\\d+/${s.name}/SKILL\\.md$`));
    }
  });

  it('loads a delivered skill by reading its SKILL.md, writes a file and runs the bundled script', async () => {
    const root = compiledForAgents(GREETER);
    const r = await run(root, [
      sh('cat .agents/skills/greeter/SKILL.md'),
      sh("printf 'hello team\\n' > GREETING.txt"),
      sh('sh .agents/skills/greeter/scripts/stamp.sh'),
      sh('cd .agents/skills/greeter && cat SKILL.md'),
      { text: 'Greeted and stamped.' },
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.turns.length).toBe(5);
    const answer = (n: number) => inputTexts(r.turns[n]!.body).at(-1) ?? '';
    // The body reached the model in the answer to the read: loaded, not just named.
    expect(answer(1)).toContain(BODY);
    expect(readFileSync(join(root, 'GREETING.txt'), 'utf8')).toBe('hello team\n');
    expect(readFileSync(join(root, 'STAMP.txt'), 'utf8')).toBe('stamped by stamp.sh\n');
    expect(answer(3)).toContain('stamp-ran');
    expect(answer(4)).toContain(BODY);
    expect(readTranscript('codex', r.stdout, 'greeter').skillLoaded).toBe('yes');
  });

  describe('transcript verdicts (readTranscript codex) on real streams', () => {
    const verdict = async (skills: Skills, script: readonly unknown[]) => {
      const r = await run(compiledForAgents(skills), script);
      return { r, t: readTranscript('codex', r.stdout, 'greeter') };
    };

    it('a cat of SKILL.md is a load', async () => {
      const { r, t } = await verdict(GREETER, [sh('cat .agents/skills/greeter/SKILL.md'), { text: 'ok' }]);
      expect(r.code, r.stderr).toBe(0);
      expect(t.skillLoaded).toBe('yes');
    });

    it('a read after a cd into the skill folder is a load', async () => {
      const { r, t } = await verdict(GREETER, [sh('cd .agents/skills/greeter && cat SKILL.md'), { text: 'ok' }]);
      expect(inputTexts(r.turns[1]!.body).at(-1)).toContain(BODY);
      expect(t.skillLoaded).toBe('yes');
    });

    it('a read that fails (no such file) is not a load, and the finished run says no', async () => {
      const { r, t } = await verdict({}, [sh('cat .agents/skills/greeter/SKILL.md'), { text: 'ok' }]);
      expect(inputTexts(r.turns[1]!.body).at(-1)).toContain('No such file');
      expect(t.skillLoaded).toBe('no');
    });

    it('an auth error is unknown, never no', async () => {
      const { r, t } = await verdict(GREETER, always({ error: { status: 401 } }));
      expect(r.code).not.toBe(0);
      expect(t.skillLoaded).toBe('unknown');
    });

    it('a server error that outlasts the retries is unknown', async () => {
      const { r, t } = await verdict(GREETER, always({ error: { status: 500 } }));
      expect(r.code).not.toBe(0);
      expect(t.skillLoaded).toBe('unknown');
    }, 120_000);

    it('a stream cut mid-answer every time is unknown', async () => {
      const { r, t } = await verdict(GREETER, always({ cut: true }));
      expect(r.code).not.toBe(0);
      expect(t.skillLoaded).toBe('unknown');
    }, 120_000);
  });

  describe('its skill listing budget, against the Costs card (listingReport)', () => {
    /** n skills, each with the longest description a manifest allows (200 characters). */
    const many = (n: number): Skills =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => {
          const head = `Skill number ${i} does its own distinct job. `;
          return [`s${String(i).padStart(3, '0')}-tool`, { description: head + 'x'.repeat(200 - head.length) }];
        }),
      );
    /** What Codex's default model was sent, and what the Costs card predicts for the agents target. */
    const measure = async (n: number) => {
      const skills = many(n);
      const root = compiledForAgents(skills);
      const r = await run(root, [{ text: 'ok' }], { model: null });
      expect(r.code, r.stderr).toBe(0);
      const listed = codexListing(r.turns[0]!) ?? [];
      const predicted = costsOf(loadProject(root)).listings.find((l) => l.target === agents.id)!;
      const full = new Map(Object.entries(skills).map(([name, s]) => [name, s.description!]));
      const ours = listed.filter((s) => full.has(s.name));
      return { listed, ours, full, predicted };
    };

    it('150 skills at the longest description fit whole with the default model, as predicted', async () => {
      const { listed, ours, full, predicted } = await measure(150);
      expect(ours.map((s) => [s.name, s.description])).toEqual([...full]);
      expect(predicted.truncated).toEqual([]);
      expect(predicted.dropped).toEqual([]);
      // The bundled skills the prediction reserves room for are the ones Codex listed.
      expect(listed.filter((s) => !full.has(s.name)).map((s) => [s.name, [...s.description].length])).toEqual(
        agents.listingBudget!.builtIn!.map((b) => [b.name, b.descriptionChars]),
      );
    }, 120_000);

    it('past the budget every description is shortened evenly and none is dropped, as predicted', async () => {
      const { ours, full, predicted } = await measure(200);
      const cut = ours.filter((s) => s.description !== full.get(s.name));
      expect(cut.length).toBeGreaterThan(0);
      for (const s of cut) expect(full.get(s.name)!.startsWith(s.description)).toBe(true);
      expect(predicted.truncated).toEqual(cut.map((s) => s.name));
      expect(predicted.dropped).toEqual([...full.keys()].filter((n) => !ours.some((s) => s.name === n)));
      // Codex counts tokens of 4 bytes, so its lengths land within 4 of the predicted share.
      for (const s of cut) expect(Math.abs(s.description.length - predicted.perSkillChars!)).toBeLessThanOrEqual(4);
    }, 120_000);
  });
});
