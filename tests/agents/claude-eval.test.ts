/**
 * `skillsmith eval --baseline` with the shipped Claude Code preset, as a user sets it up (the
 * agent on PATH from an npm install under the home folder, its key named in `env`), plus the
 * harness's base URL: real trials in Skillsmith's sandbox, the network linked out through
 * pasta to the test network's model host, with the right triggered verdicts and the effect.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCode } from '../../shared/targets/claude-code';
import { cleanup, installSkills, tempDir } from '../sandbox/helpers';
import { skillsmithBin } from '../support/paths';
import { claudeEnv } from './harness/claude';
import { runInAgentNs, startModelApi, startTestNetwork, type ModelApi, type TestNetwork } from './harness/net';
import { agentsOrSkip } from './harness/suite';

const bins = agentsOrSkip();

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

describe.skipIf(!bins)('skillsmith eval with the real Claude Code', () => {
  let net: TestNetwork;
  let api: ModelApi;
  let root: string;
  beforeAll(async () => {
    net = startTestNetwork();
    const description = 'Greets the team in GREETING.txt. Use when asked to greet the team.';
    // With the skill listed, the model loads it and follows it; without, it cannot greet.
    api = await startModelApi(
      net,
      {
        conversations: [
          {
            when: { includes: `- greeter: ${description}` },
            steps: [
              { tool: 'Skill', input: { skill: 'greeter' } },
              { tool: 'Bash', input: { command: 'echo "hello team" > GREETING.txt', description: 'greet' } },
              { text: 'Greeted the team.' },
            ],
          },
          { steps: [{ text: 'I do not know how this team likes to be greeted.' }] },
        ],
      },
      tempDir('skillsmith-eval-api-'),
    );
    root = tempDir('skillsmith-eval-agent-');
    installSkills(root, {
      greeter: {
        description,
        body: '# greeter\n\nWrite "hello team" into GREETING.txt with the shell.\n',
        files: { 'evals/greet.eval.yaml': EVAL, 'fixtures/repo/README.md': '# a project\n' },
      },
    });
    writeFileSync(
      join(root, 'kitbash.toml'),
      [
        '[project]',
        `targets = [${JSON.stringify(claudeCode.id)}]`,
        '',
        '[evals.runners.claude]',
        'preset = "claude-code"',
        `env = [${Object.keys(claudeEnv('', ''))
          .filter((k) => k !== 'HOME')
          .map((k) => JSON.stringify(k))
          .join(', ')}]`,
        '',
      ].join('\n'),
    );
  }, 120_000);
  afterAll(() => {
    api?.close();
    net?.close();
    cleanup();
  });

  it('runs real trials with and without the skill: triggered, the file written, the effect shown', async () => {
    const { HOME: _, ...agentEnv } = claudeEnv(api.url, '');
    const env = {
      // The agent where npm put it: a symlink in a bin folder under this user's home.
      PATH: `${dirname(bins!.claude)}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: process.env.HOME ?? '/root',
      LANG: 'C.UTF-8',
      SKILLSMITH_CACHE_DIR: tempDir('skillsmith-eval-cache-'),
      SKILLSMITH_CONFIG_DIR: tempDir('skillsmith-eval-config-'),
      ...agentEnv,
    };
    const skillsmith = (...args: string[]) =>
      runInAgentNs(net, [process.execPath, skillsmithBin, ...args], { cwd: root, env, timeoutMs: 300_000 });
    // The runner passes the user's variables and the network: nothing runs before approval.
    const refused = await skillsmith('eval', '--baseline', '--json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^skillsmith eval: runner claude: not approved yet — it asks for network, env /);
    expect(api.requests()).toEqual([]);
    expect((await skillsmith('eval', '--approve-runner', 'claude')).code).toBe(0);

    const r = await skillsmith('eval', '--baseline', '--json');
    expect(r.code, `${r.stderr}\n${r.stdout.slice(0, 2000)}`).toBe(0);
    // The pinned CLI is the version the preset was verified with: no warning.
    expect(r.stderr).not.toMatch(/^warning:/m);
    const out = JSON.parse(r.stdout) as { results: Array<Record<string, unknown>> };
    expect(out.results).toHaveLength(1);
    const res = out.results[0]!;
    expect([res.eval, res.runner, res.pass_rate, res.baseline_pass_rate, res.triggered_rate, res.passed]).toEqual([
      'greet',
      'claude',
      1,
      0,
      1,
      true,
    ]);
    // Every trial really reached the model: two sessions with the skill, two without.
    const sessions = api
      .requests()
      .filter((q) => q.turn !== null && !q.body.messages.some((m: { role: string }) => m.role === 'assistant'));
    expect(sessions.length).toBe(4);
  });
});
