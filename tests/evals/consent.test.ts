/**
 * Consent for runners (SPEC.md "Evals", Runner approval): a runner's first use and any change
 * to what it may reach need the user's approval, recorded outside the project; read paths
 * that reach the root, a home or credentials are refused outright.
 */
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { grantChanges, grantKey, refusedRead, runnerGrant, type RunnerGrant } from '../../shared/evals/consent';
import { approveRunner, pendingApprovals, RunnerNotApproved } from '../../main/services/evals/approvals';
import { configDir } from '../../main/services/user/config-dir';
import { runEvals } from '../../main/services/evals/run';
import { EvalService } from '../../main/services/evals/service';
import { runnerConfig } from './runner-fixture';
import { cleanup, installSkills, tempDir } from '../sandbox/helpers';

afterAll(cleanup);

describe('the approval key and what changed (pure)', () => {
  const g = runnerGrant(runnerConfig({ env: ['B', 'A'] }), []);
  it('is one hash per definition and project, whatever the order of env names', () => {
    expect(grantKey(g, '/p')).toMatch(/^[0-9a-f]{64}$/);
    expect(grantKey(runnerGrant(runnerConfig({ env: ['A', 'B'] }), []), '/p')).toBe(grantKey(g, '/p'));
    expect(grantKey(g, '/q')).not.toBe(grantKey(g, '/p'));
    for (const over of [
      { command: ['./other', '{task}'] },
      { network: true },
      { env: ['A'] },
      { target: 'gemini' },
      { timeoutMs: 1000 },
      { transcript: 'codex' as const },
    ])
      expect(grantKey(runnerGrant(runnerConfig({ env: ['A', 'B'], ...over }), []), '/p')).not.toBe(grantKey(g, '/p'));
    expect(grantKey(runnerGrant(runnerConfig({ env: ['A', 'B'] }), ['/opt/x']), '/p')).not.toBe(grantKey(g, '/p'));
  });

  it('names each change', () => {
    const now: RunnerGrant = {
      ...g,
      command: ['./agent', '-v', '{task}'],
      env: ['A', 'C'],
      read: ['/opt/x'],
      network: true,
    };
    expect(grantChanges(g, now)).toEqual([
      'command: ./agent {task} → ./agent -v {task}',
      'read: + /opt/x',
      'env: + C',
      'env: − B',
      'network: off → on',
    ]);
  });

  it('refuses the root, a home and its ancestors, and credential folders as read paths', () => {
    const homes = ['/home/ana'];
    expect(refusedRead('/', homes)).toBe('the file-system root');
    expect(refusedRead('/home/ana', homes)).toBe('your home folder');
    expect(refusedRead('/home/ana/', homes)).toBe('your home folder');
    expect(refusedRead('/home', homes)).toBe('a folder holding your home folder (/home/ana)');
    expect(refusedRead('/home/ana/.ssh', homes)).toBe('a credential location (~/.ssh)');
    expect(refusedRead('/home/ana/.ssh/id_ed25519', homes)).toBe('a credential location (~/.ssh)');
    expect(refusedRead('/home/ana/.claude', homes)).toBe('a credential location (~/.claude)');
    expect(refusedRead('/home/ana/.config', homes)).toMatch(/^a folder holding a credential location \(~\/\.config\//);
    expect(refusedRead('/home/ana/.config/gh/hosts.yml', homes)).toBe('a credential location (~/.config/gh)');
    expect(refusedRead('/home/ana/.sshx', homes)).toBeUndefined();
    expect(refusedRead('/home/ana/src/tools', homes)).toBeUndefined();
    expect(refusedRead('/opt/toolchain', homes)).toBeUndefined();
    expect(refusedRead('C:\\Users\\ana\\.aws', ['C:\\Users\\ana'])).toBe('a credential location (~/.aws)');
  });
});

describe('the approvals store', () => {
  let config = '';
  let env: Record<string, string> = {};
  beforeEach(() => {
    config = tempDir('skillsmith-config-');
    env = { SKILLSMITH_CONFIG_DIR: config, HOME: homedir() };
  });

  function project(table: string): string {
    const root = tempDir('skillsmith-consent-');
    writeFileSync(join(root, 'kitbash.toml'), `[project]\ntargets = ["claude-code"]\n${table}`);
    return root;
  }
  const table = '[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\nread = ["tools"]\n';

  it('lives in the platform config folder, not the cache', () => {
    expect(configDir({ SKILLSMITH_CONFIG_DIR: '/x/c' }, 'linux')).toBe('/x/c');
    expect(configDir({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux')).toBe('/x/cfg/skillsmith');
    expect(configDir({}, 'linux')).toBe(join(homedir(), '.config', 'skillsmith'));
    expect(configDir({}, 'darwin')).toBe(join(homedir(), 'Library', 'Application Support', 'Skillsmith'));
    expect(configDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe(
      join('C:\\Users\\a\\AppData\\Roaming', 'Skillsmith'),
    );
  });

  it('asks on first use, not after approval, and again with what changed; owner-only files', () => {
    const root = project(table);
    const r = runnerConfig({ read: ['tools'] });
    expect(pendingApprovals(root, [r], { env })).toEqual([
      { grant: expect.objectContaining({ id: 'agent', read: [join(root, 'tools')] }), changes: [] },
    ]);
    const grant = approveRunner(root, 'agent', { env });
    expect(grant.read).toEqual([join(root, 'tools')]);
    expect(pendingApprovals(root, [r], { env })).toEqual([]);
    expect(statSync(join(config, 'runner-approvals.json')).mode & 0o777).toBe(0o600);
    expect(statSync(config).mode & 0o777).toBe(0o700);
    // Another checkout of the same project is another approval.
    const clone = project(table);
    expect(pendingApprovals(clone, [r], { env })).toHaveLength(1);
    expect(pendingApprovals(root, [{ ...r, network: true }], { env })[0]!.changes).toEqual(['network: off → on']);
  });

  it('ignores a damaged file with a one-line notice', () => {
    const root = project(table);
    writeFileSync(join(config, 'runner-approvals.json'), '{"format": "skillsmith-runner-approvals", ');
    const notices: string[] = [];
    expect(pendingApprovals(root, [runnerConfig()], { env, notice: (l) => notices.push(l) })).toHaveLength(1);
    expect(notices).toEqual([
      `skillsmith: ignoring the damaged runner approvals file ${join(config, 'runner-approvals.json')} — runners will ask for approval again`,
    ]);
    approveRunner(root, 'agent', { env, notice: () => undefined });
    expect(JSON.parse(readFileSync(join(config, 'runner-approvals.json'), 'utf8'))).toMatchObject({ version: 1 });
  });

  it('refuses a read path reaching a home or credentials, also through a symlink', () => {
    const home = tempDir('skillsmith-home-');
    mkdirSync(join(home, '.ssh'));
    const henv = { ...env, HOME: home };
    const link = project(
      '[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\nread = ["keys"]\n',
    );
    symlinkSync(join(home, '.ssh'), join(link, 'keys'));
    expect(() => approveRunner(link, 'agent', { env: henv })).toThrow(
      'kitbash.toml: evals.runners.agent.read: keys is refused — a credential location (~/.ssh); an agent signs in through its API-key variable in env (e.g. env = ["ANTHROPIC_API_KEY"]), or a login file you name in home (copied into the trial, e.g. home = [".codex/auth.json"]), never by reading its login folder',
    );
    const root = project(
      `[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\nread = ["/"]\n`,
    );
    expect(() => approveRunner(root, 'agent', { env: henv })).toThrow(
      /^kitbash\.toml: evals\.runners\.agent\.read: \/ is refused — the file-system root; /,
    );
    const own = project(
      `[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\nread = [${JSON.stringify(home)}]\n`,
    );
    expect(() => approveRunner(own, 'agent', { env: henv })).toThrow(/ is refused — your home folder; /);
  });
});

describe('eval refuses before any trial', () => {
  const kept = process.env.SKILLSMITH_CONFIG_DIR;
  afterAll(() => {
    if (kept === undefined) delete process.env.SKILLSMITH_CONFIG_DIR;
    else process.env.SKILLSMITH_CONFIG_DIR = kept;
  });

  function evalProject(table: string): string {
    const root = tempDir('skillsmith-consent-run-');
    writeFileSync(join(root, 'kitbash.toml'), `[project]\ntargets = ["claude-code"]\n${table}`);
    installSkills(root, { one: { files: { 'evals/a.eval.yaml': 'tier: behavioral\ntask: t\n' } } });
    return root;
  }

  it('an unapproved runner, a changed one, and a built-in preset used as it is', async () => {
    process.env.SKILLSMITH_CONFIG_DIR = tempDir('skillsmith-config-');
    const root = evalProject('[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\n');
    const planned: unknown[] = [];
    const run = runEvals({ projectRoot: root, skills: [], baseline: false }, { onEvent: (e) => planned.push(e) });
    await expect(run).rejects.toBeInstanceOf(RunnerNotApproved);
    await expect(run).rejects.toMatchObject({
      code: 'forbidden',
      message:
        'runner agent: not approved yet — it asks for no network, env none, reads none; approve it with: skillsmith eval --approve-runner agent',
    });
    expect(planned).toEqual([]);
    await expect(
      runEvals({ projectRoot: root, skills: [], runner: 'claude-code', baseline: false }),
    ).rejects.toMatchObject({
      message:
        'runner claude-code: not approved yet — it asks for network, env ANTHROPIC_API_KEY, reads none; approve it with: skillsmith eval --approve-runner claude-code',
    });
  });

  it('the app cannot start a run with an unapproved runner either', async () => {
    process.env.SKILLSMITH_CONFIG_DIR = tempDir('skillsmith-config-');
    const root = evalProject('[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\n');
    const svc = new EvalService();
    // In the app's words (SPEC D272): it asks for the approval itself when the run starts again.
    expect(await svc.start(root, {}, { skills: [], baseline: false })).toEqual({
      ok: false,
      message:
        'runner agent: not approved yet — it asks for no network, env none, reads none; start the run again to review and approve it',
    });
    expect(svc.active(root)).toBeNull();
  });

  it('a refused read path stops the run with a one-line error', async () => {
    process.env.SKILLSMITH_CONFIG_DIR = tempDir('skillsmith-config-');
    const root = evalProject(
      `[evals.runners.agent]\ncommand = ["./agent", "{task}"]\ntarget = "claude-code"\nread = [${JSON.stringify(join(homedir(), '.claude'))}]\n`,
    );
    await expect(runEvals({ projectRoot: root, skills: [], baseline: false })).rejects.toMatchObject({
      code: 'invalid-request',
      message: expect.stringMatching(
        /^kitbash\.toml: evals\.runners\.agent\.read: .*\/\.claude is refused — a credential location \(~\/\.claude\); an agent signs in through its API-key variable in env/,
      ),
    });
  });
});
