/**
 * `skillsmith eval --baseline` with each shipped preset, as a user sets it up (the agent on
 * PATH from an npm install under the home folder, its key named in `env`), plus the harness's
 * base URL: real trials of the real Claude Code, Codex and Gemini CLI in Skillsmith's sandbox,
 * the network linked out through pasta to the test network's model host, with the right
 * triggered verdicts and the effect. Nothing runs before the runner is approved.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installSkills, tempDir } from '../sandbox/helpers';
import { skillsmithBin } from '../support/paths';
import { claudeEnv } from './harness/claude';
import { codexEnv } from './harness/codex';
import { geminiEnv } from './harness/gemini';
import { runInAgentNs, startModelApi, type ModelApi } from './harness/net';
import { agentsOrSkip, networkForSuite } from './harness/suite';

const bins = agentsOrSkip();

const DESCRIPTION = 'Greets the team in GREETING.txt. Use when asked to greet the team.';
const EVAL = `tier: behavioral
description: greets the team in GREETING.txt
fixture: fixtures/repo
task: Greet the team for me
repeat: 2
threshold: 1.0
assert:
  - files_changed: [GREETING.txt]
  - output_matches: "Greeted the team"
  - skill_triggered: true
  - exit_code: 0
`;
const GREET = 'echo "hello team" > GREETING.txt';

interface Agent {
  /** The runner id in kitbash.toml, and its preset. */
  readonly runner: string;
  readonly preset: string;
  readonly bin: () => string;
  /** The variables the harness sets (the base URL, a key, quiet switches); HOME is dropped. */
  readonly env: (apiUrl: string, home: string) => Record<string, string>;
  /** Extra `read` paths the runner needs (a config folder the env points at). */
  readonly read?: (home: string) => string[];
  /**
   * Files of the harness's home the runner copies into the trial (its `home` field); the
   * harness's home is then the caller's HOME, as a user's own would be.
   */
  readonly home?: readonly string[];
  /** Text only a session that lists the skill sends its model. */
  readonly listed: string;
  /** With the skill listed: load it, greet with the shell, answer. */
  readonly steps: readonly unknown[];
}

const AGENTS: readonly Agent[] = [
  {
    runner: 'claude',
    preset: 'claude-code',
    bin: () => bins!.claude,
    env: claudeEnv,
    listed: `- greeter: ${DESCRIPTION}`,
    steps: [
      { tool: 'Skill', input: { skill: 'greeter' } },
      { tool: 'Bash', input: { command: GREET, description: 'greet' } },
      { text: 'Greeted the team.' },
    ],
  },
  {
    runner: 'codex',
    preset: 'codex',
    bin: () => bins!.codex,
    // Codex 0.171.0 ignores OPENAI_BASE_URL and wants its provider table in a CODEX_HOME it can
    // write beside (read-only, it exits "Read-only file system"): the user's ~/.codex/config.toml,
    // copied into the trial's private home by the runner's `home` field, is how it gets there.
    env: (url, home) => ({ OPENAI_API_KEY: codexEnv(url, home).OPENAI_API_KEY! }),
    home: ['.codex/config.toml'],
    listed: `- greeter: ${DESCRIPTION}`,
    steps: [
      { tool: 'exec_command', input: { cmd: 'cat .agents/skills/greeter/SKILL.md' } },
      { tool: 'exec_command', input: { cmd: GREET } },
      { text: 'Greeted the team.' },
    ],
  },
  {
    runner: 'gemini',
    preset: 'gemini',
    bin: () => bins!.gemini,
    // With GOOGLE_GEMINI_BASE_URL set and no settings file, Gemini CLI 0.61.0 picks the
    // "gateway" auth type and refuses it headless (exit 41): the settings choosing the API key
    // come in through its system settings path, a read the runner declares.
    env: (url, home) => ({
      ...geminiEnv(url, home),
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, '.gemini', 'settings.json'),
    }),
    read: (home) => [join(home, '.gemini', 'settings.json')],
    listed: '<name>greeter</name>',
    steps: [
      { tool: 'activate_skill', input: { name: 'greeter' } },
      { tool: 'run_shell_command', input: { command: GREET, description: 'greet' } },
      { text: 'Greeted the team.' },
    ],
  },
];

describe.skipIf(!bins).each(AGENTS)('skillsmith eval with the real $preset', (agent) => {
  const net = networkForSuite();
  let api: ModelApi;
  let root: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    // With the skill listed, the model loads it and follows it; without, it cannot greet.
    api = await startModelApi(
      net(),
      {
        conversations: [
          { when: { includes: agent.listed }, steps: agent.steps },
          { steps: [{ text: 'I do not know how this team likes to be greeted.' }] },
        ],
      },
      tempDir('skillsmith-eval-api-'),
    );
    const home = tempDir('skillsmith-eval-home-');
    const { HOME: _, ...agentEnv } = agent.env(api.url, home);
    root = tempDir('skillsmith-eval-agent-');
    installSkills(root, {
      greeter: {
        description: DESCRIPTION,
        body: '# greeter\n\nWrite "hello team" into GREETING.txt with the shell.\n',
        files: { 'evals/greet.eval.yaml': EVAL, 'fixtures/repo/README.md': '# a project\n' },
      },
    });
    const list = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`;
    writeFileSync(
      join(root, 'kitbash.toml'),
      [
        `[evals.runners.${agent.runner}]`,
        `preset = ${JSON.stringify(agent.preset)}`,
        `env = ${list(Object.keys(agentEnv))}`,
        ...(agent.read ? [`read = ${list(agent.read(home))}`] : []),
        ...(agent.home ? [`home = ${list(agent.home)}`] : []),
        '',
      ].join('\n'),
    );
    env = {
      // The agent where npm put it: a symlink in a bin folder under this user's home.
      PATH: `${dirname(agent.bin())}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: agent.home ? home : (process.env.HOME ?? '/root'),
      LANG: 'C.UTF-8',
      SKILLSMITH_CACHE_DIR: tempDir('skillsmith-eval-cache-'),
      SKILLSMITH_CONFIG_DIR: tempDir('skillsmith-eval-config-'),
      ...agentEnv,
    };
  }, 120_000);
  afterAll(() => api?.close());

  const skillsmith = (...args: string[]) =>
    runInAgentNs(net(), [process.execPath, skillsmithBin, ...args], { cwd: root, env, timeoutMs: 300_000 });

  it('runs real trials with and without the skill once approved: triggered, the file written, the effect', async () => {
    // The runner passes the user's variables and the network: nothing runs before approval.
    const refused = await skillsmith('eval', '--baseline', '--json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(`^skillsmith eval: runner ${agent.runner}: not approved yet — it asks for network, env `),
    );
    expect(api.requests()).toEqual([]);
    expect((await skillsmith('eval', '--approve-runner', agent.runner)).code).toBe(0);

    const r = await skillsmith('eval', '--baseline', '--json');
    expect(r.code, `${r.stderr}\n${r.stdout.slice(0, 3000)}`).toBe(0);
    // The pinned CLI is the version the preset was verified with: no warning.
    expect(r.stderr).not.toMatch(/^warning:/m);
    const out = JSON.parse(r.stdout) as { results: Array<Record<string, unknown>> };
    expect(out.results).toHaveLength(1);
    const res = out.results[0]!;
    expect([res.eval, res.runner, res.pass_rate, res.baseline_pass_rate, res.triggered_rate, res.passed]).toEqual([
      'greet',
      agent.runner,
      1,
      0,
      1,
      true,
    ]);
  }, 600_000);
});
