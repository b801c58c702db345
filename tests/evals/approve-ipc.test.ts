/**
 * The app's runner approval over IPC (SPEC.md "Evals", Runner approval): evals.runners lists
 * what a run would use and what each runner may do; evals.approveRunner records exactly the
 * definition that was listed, in the CLI's approvals file, and refuses a stale one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/dispatch';
import type { RunnerApproval } from '../../shared/ipc/channels/evals';
import { testPlatform, testSession } from '../desktop/helpers';
import { cleanup, installSkills, tempDir } from '../sandbox/helpers';

const kept = process.env.SKILLSMITH_CONFIG_DIR;
afterAll(() => {
  if (kept === undefined) delete process.env.SKILLSMITH_CONFIG_DIR;
  else process.env.SKILLSMITH_CONFIG_DIR = kept;
  cleanup();
});

const AGENT =
  '[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\nread = ["tools"]\nenv = ["AGENT_KEY"]\nnetwork = true\n';
const OTHER = '[evals.runners.other]\ncommand = ["./other", "{task}"]\ntarget = "claude-code"\n';

function evalProject(table: string): string {
  const root = tempDir('skillsmith-approve-ipc-');
  writeFileSync(join(root, 'kitbash.toml'), `[project]\ntargets = ["claude-code"]\n${table}`);
  installSkills(root, { one: { files: { 'evals/a.eval.yaml': 'tier: behavioral\ntask: t\n' } } });
  return root;
}

async function opened(root: string) {
  const { session } = testSession(testPlatform(tempDir('skillsmith-approve-data-')));
  const o = await dispatch('project.open', { path: root }, { session });
  if (!o.ok) throw new Error(JSON.stringify(o));
  const call = (channel: string, req: unknown) => dispatch(channel, req, { session });
  const list = async (req: unknown = { skills: [], baseline: false }): Promise<RunnerApproval[]> => {
    const r = await call('evals.runners', req);
    if (!r.ok) throw new Error(JSON.stringify(r));
    return (r.value as { runners: RunnerApproval[] }).runners;
  };
  return { call, list };
}

const approvalsFile = (): unknown =>
  JSON.parse(readFileSync(join(process.env.SKILLSMITH_CONFIG_DIR!, 'runner-approvals.json'), 'utf8'));

describe('evals.runners and evals.approveRunner', () => {
  beforeEach(() => {
    process.env.SKILLSMITH_CONFIG_DIR = tempDir('skillsmith-config-');
  });

  it('lists each runner a run would use with the summary the CLI prints, unapproved on first use', async () => {
    const root = evalProject(AGENT + OTHER);
    const { list } = await opened(root);
    const runners = await list();
    expect(runners.map((r) => [r.id, r.approved, r.changes])).toEqual([
      ['agent', false, []],
      ['other', false, []],
    ]);
    const [agent] = runners;
    expect(agent!.key).toMatch(/^[0-9a-f]{64}$/);
    expect(agent!.summary).toEqual([
      'command: ./agent {task}',
      `reads: ${join(root, 'tools')} (read-only)`,
      'env: AGENT_KEY (passed from your environment)',
      'network: on — it can reach any host',
      'target: claude-code, transcript: text, timeout: 600 s',
    ]);
    // Only the runner the request names.
    expect((await list({ skills: [], runner: 'other', baseline: false })).map((r) => r.id)).toEqual(['other']);
  });

  it('records the approval in the per-user file; the runner is then listed as approved and a run may start', async () => {
    const root = evalProject(AGENT);
    const { call, list } = await opened(root);
    const [agent] = await list();
    const r = await call('evals.approveRunner', { runner: 'agent', key: agent!.key });
    expect(r).toEqual({ ok: true, value: { runner: 'agent', summary: agent!.summary } });
    expect(approvalsFile()).toMatchObject({
      format: 'skillsmith-runner-approvals',
      approvals: { [agent!.key]: { runner: 'agent', grant: { id: 'agent', env: ['AGENT_KEY'], network: true } } },
    });
    expect(await list()).toEqual([{ ...agent, approved: true }]);
  });

  it('refuses an approval whose runner changed since it was listed, and records nothing', async () => {
    const root = evalProject(AGENT);
    const { call, list } = await opened(root);
    const [shown] = await list();
    // kitbash.toml edited between showing the dialog and the click.
    writeFileSync(
      join(root, 'kitbash.toml'),
      `[project]\ntargets = ["claude-code"]\n${AGENT.replace('read = ["tools"]', 'read = ["tools", "more"]')}`,
    );
    expect(await call('evals.approveRunner', { runner: 'agent', key: shown!.key })).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message:
          'kitbash.toml: runner agent changed since it was shown for approval — nothing was approved; review it again',
      },
    });
    expect(() => approvalsFile()).toThrow(/ENOENT/);
    const [now] = await list();
    expect(now!.key).not.toBe(shown!.key);
    expect(now!.approved).toBe(false);
  });

  it('lists what changed since the last approval', async () => {
    const root = evalProject(AGENT);
    const { call, list } = await opened(root);
    const [first] = await list();
    expect((await call('evals.approveRunner', { runner: 'agent', key: first!.key })).ok).toBe(true);
    writeFileSync(
      join(root, 'kitbash.toml'),
      `[project]\ntargets = ["claude-code"]\n${AGENT.replace('env = ["AGENT_KEY"]', 'env = ["AGENT_KEY", "GITHUB_TOKEN"]')}`,
    );
    const [changed] = await list();
    expect(changed).toMatchObject({ approved: false, changes: ['env: + GITHUB_TOKEN'] });
    expect(changed!.summary).toContain('env: AGENT_KEY, GITHUB_TOKEN (passed from your environment)');
  });

  it('refuses garbage arguments before any service runs', async () => {
    const root = evalProject(AGENT);
    const { call } = await opened(root);
    const key = 'a'.repeat(64);
    for (const bad of [
      {},
      { runner: 'agent' },
      { runner: 'agent', key: 'nothex' },
      { runner: 'agent', key: 'A'.repeat(64) },
      { runner: 'agent', key: `${key}0` },
      { runner: '../agent', key },
      { runner: 'Agent', key },
      { runner: 'agent', key, extra: 1 },
      { runner: 7, key },
      'agent',
      null,
    ])
      expect(await call('evals.approveRunner', bad), JSON.stringify(bad)).toMatchObject({
        ok: false,
        error: { code: 'invalid-request' },
      });
    for (const bad of [
      {},
      { skills: ['../x'], baseline: false },
      { skills: [], baseline: 'yes' },
      { skills: [], baseline: false, runner: 'A B' },
      { skills: [], baseline: false, repeat: 0 },
      { skills: [], baseline: false, projectRoot: '/' },
    ])
      expect(await call('evals.runners', bad), JSON.stringify(bad)).toMatchObject({
        ok: false,
        error: { code: 'invalid-request' },
      });
    expect(() => approvalsFile()).toThrow(/ENOENT/);
  });

  it('refuses a well-formed key that is not the runner as defined, and an unknown runner', async () => {
    const root = evalProject(AGENT);
    const { call } = await opened(root);
    expect(await call('evals.approveRunner', { runner: 'agent', key: 'a'.repeat(64) })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await call('evals.approveRunner', { runner: 'ghost', key: 'a'.repeat(64) })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', message: expect.stringMatching(/^Runner ghost: no such runner/) },
    });
    expect(() => approvalsFile()).toThrow(/ENOENT/);
  });

  it('answers a refused read path with its one-line error, and lists nothing for a run without evals', async () => {
    const root = evalProject(
      `[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\nread = [${JSON.stringify(join(homedir(), '.ssh'))}]\n`,
    );
    const { call, list } = await opened(root);
    expect(await call('evals.runners', { skills: [], baseline: false })).toMatchObject({
      ok: false,
      error: {
        code: 'invalid-request',
        message: expect.stringMatching(/^kitbash\.toml: evals\.runners\.agent\.read: /),
      },
    });
    writeFileSync(join(root, 'kitbash.toml'), `[project]\ntargets = ["claude-code"]\n${OTHER}`);
    expect(await list({ skills: [], evals: ['none-such'], baseline: false })).toEqual([]);
  });
});
