/**
 * The real Codex CLI (the version pinned in tooling/agents) in a project Skillsmith compiled
 * for the `agents` target, its model the scripted API: what it lists to its model is what
 * compile delivered, a delivered skill loads, writes and runs its script for real, and the
 * eval transcript reader judges real `codex exec --json` streams.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTranscript } from '../../shared/evals/transcript';
import { agents } from '../../shared/targets/agents';
import { cleanup, installSkills, tempDir } from '../sandbox/helpers';
import { runCli } from '../support/paths';
import { codexArgv, codexEnv, codexListing, inputTexts } from './harness/codex';
import { startTestNetwork, type TestNetwork } from './harness/net';
import { agentsOrSkip, runAgent } from './harness/suite';

const bins = agentsOrSkip();

type Skills = Parameters<typeof installSkills>[1];

/** A project with these skills compiled for the agents target, committed as an eval trial's workspace is. */
function compiledForAgents(skills: Skills): string {
  const root = tempDir('skillsmith-agent-');
  installSkills(root, skills);
  writeFileSync(join(root, 'kitbash.toml'), `[project]\ntargets = [${JSON.stringify(agents.id)}]\n`);
  const r = runCli(['compile'], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
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
  let net: TestNetwork;
  beforeAll(() => {
    net = startTestNetwork();
  });
  afterAll(() => {
    net?.close();
    cleanup();
  });

  const run = (root: string, script: readonly unknown[], opts: { model?: string | null } = {}) =>
    runAgent({
      net,
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
    const root = compiledForAgents({
      'alpha-notes': { description: 'Summarise meeting notes into action items. Use when notes are pasted.' },
      'beta-deploy': { description: 'Check a deployment plan before it runs. Use before any deploy.' },
      'hooks-only': { description: 'Needs agent hooks.', toml: '[targets]\nrequires = ["hooks"]' },
    });
    const r = await run(root, [{ text: 'Nothing to do.' }]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.turns.length).toBe(1);
    const listed = codexListing(r.turns[0]!);
    expect(listed, 'Codex sent no skill listing').toBeDefined();
    const ours = listed!.filter((s) => !builtIn.has(s.name));
    expect(ours.map(({ name, description }) => ({ name, description }))).toEqual([
      { name: 'alpha-notes', description: 'Summarise meeting notes into action items. Use when notes are pasted.' },
      { name: 'beta-deploy', description: 'Check a deployment plan before it runs. Use before any deploy.' },
      { name: 'hooks-only', description: 'Needs agent hooks.' },
    ]);
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
});
