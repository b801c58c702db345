/**
 * A runner's `home` files (SPEC.md "Evals", Runners): named files of the caller's home copied
 * into each trial's private HOME, part of what the user approves, never the originals.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grantChanges, grantKey, grantSummary, notApprovedMessage, runnerGrant } from '../../shared/evals/consent';
import { homeRelative, readRunners } from '../../shared/evals/runners';
import { MAX_HOME_FILE_BYTES, seedHome } from '../../main/services/evals/home-seed';
import { runTrialProcess } from '../../main/services/evals/trial';
import { currentHost, probeBackend } from '../../main/services/sandbox/probe';
import { runnerConfig } from './runner-fixture';
import { bwrapWorks, cleanup, tempDir } from '../sandbox/helpers';

afterAll(cleanup);

describe('the home field of a runner', () => {
  it('takes paths relative to the home folder, ~/ allowed, and refuses any other', () => {
    expect(homeRelative('.codex/config.toml')).toBe('.codex/config.toml');
    expect(homeRelative('~/.codex//./config.toml')).toBe('.codex/config.toml');
    for (const bad of ['/etc/passwd', '~/../etc/passwd', '.codex/../../x', '', '~', '~/', 'C:/x'])
      expect(homeRelative(bad), bad).toBeUndefined();
    const read = readRunners({
      evals: { runners: { codex: { preset: 'codex', home: ['~/.codex/config.toml', '.codex/config.toml'] } } },
    });
    expect(read.ok && read.value[0]!.home).toEqual(['.codex/config.toml']);
    const refused = readRunners({ evals: { runners: { codex: { preset: 'codex', home: ['../x'] } } } });
    expect(!refused.ok && refused.error.message).toBe(
      'kitbash.toml: evals.runners.codex.home: must be a list of files under your home folder (.codex/config.toml)',
    );
    const presets = readRunners({ evals: { runners: { c: { preset: 'codex' } } } });
    expect(presets.ok && presets.value[0]!.home).toEqual([]);
  });

  it('is part of the approval: adding a file asks again, naming it and a login folder as such', () => {
    const before = runnerGrant(runnerConfig(), []);
    const now = runnerGrant(runnerConfig({ home: ['.codex/config.toml', '.gitconfig-extra'] }), []);
    // No home files: the grant is what it was before the field existed, so old approvals hold.
    expect(Object.keys(before)).not.toContain('home');
    expect(grantKey(now, '/p')).not.toBe(grantKey(before, '/p'));
    expect(grantChanges(before, now)).toEqual(['home: + .codex/config.toml', 'home: + .gitconfig-extra']);
    expect(grantSummary(now)).toContain(
      "home: copies ~/.codex/config.toml, ~/.gitconfig-extra into the trial's private home (the agent may change the copies, never the originals; ~/.codex/config.toml is from ~/.codex, a login or credential location: the agent gets its contents)",
    );
    expect(notApprovedMessage({ grant: now, changes: [] })).toContain(
      'copies of ~/.codex/config.toml, ~/.gitconfig-extra; approve it with',
    );
  });
});

describe('seedHome', () => {
  const from = tempDir('skillsmith-home-from-');
  mkdirSync(join(from, '.codex'));
  writeFileSync(join(from, '.codex', 'config.toml'), 'model = "x"\n', { mode: 0o644 });
  writeFileSync(join(from, 'dotfile-real'), 'linked\n');
  symlinkSync(join(from, 'dotfile-real'), join(from, '.linked'));

  it('copies each file to the same path, owner-only, following a dotfile symlink', () => {
    const to = tempDir('skillsmith-home-to-');
    expect(seedHome('codex', ['.codex/config.toml', '.linked'], from, to)).toBeUndefined();
    expect(readFileSync(join(to, '.codex', 'config.toml'), 'utf8')).toBe('model = "x"\n');
    expect(statSync(join(to, '.codex', 'config.toml')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(to, '.linked'), 'utf8')).toBe('linked\n');
    expect(statSync(join(to, '.linked')).isSymbolicLink()).toBe(false);
  });

  it('refuses, naming the file, a missing file, a folder, a FIFO and a file over the cap', () => {
    spawnSync('mkfifo', [join(from, '.fifo')]);
    writeFileSync(join(from, '.big'), Buffer.alloc(MAX_HOME_FILE_BYTES + 1));
    const to = tempDir('skillsmith-home-to-');
    expect(seedHome('codex', ['.codex/auth.json'], from, to)).toBe(
      "runner codex: home: ~/.codex/auth.json does not exist — create it, or take it out of the runner's home list",
    );
    expect(seedHome('codex', ['.codex'], from, to)).toBe('runner codex: home: ~/.codex is not a regular file');
    expect(seedHome('codex', ['.fifo'], from, to)).toBe('runner codex: home: ~/.fifo is not a regular file');
    expect(seedHome('codex', ['.big'], from, to)).toBe(
      `runner codex: home: ~/.big is ${MAX_HOME_FILE_BYTES + 1} bytes, over the ${MAX_HOME_FILE_BYTES}-byte limit for a copied home file`,
    );
  });
});

describe.runIf(await bwrapWorks())('a trial with home files, sandboxed', () => {
  it('sees the copy at its path in the private home, may change it and write beside it; the original holds', async () => {
    const home = tempDir('skillsmith-home-user-');
    mkdirSync(join(home, '.cfg'));
    writeFileSync(join(home, '.cfg', 'agent.toml'), 'provider = "local"\n');
    const runDir = tempDir('skillsmith-home-run-');
    const script = [
      'cat "$HOME/.cfg/agent.toml"',
      'echo changed > "$HOME/.cfg/agent.toml"',
      'echo beside > "$HOME/.cfg/state" && cat "$HOME/.cfg/state"',
      `test -e ${JSON.stringify(join(home, '.cfg'))} && echo original-visible || echo original-hidden`,
    ].join('; ');
    const run = await runTrialProcess({
      projectRoot: tempDir('skillsmith-home-project-'),
      runner: runnerConfig({ home: ['.cfg/agent.toml'] }),
      argv: ['/bin/sh', '-c', script],
      workspace: tempDir('skillsmith-home-ws-'),
      runDir,
      backend: await probeBackend(currentHost()),
      parentEnv: { PATH: '/usr/bin:/bin', HOME: home },
      homes: [home],
    });
    expect([run.outcome, run.exitCode, run.stderr]).toEqual(['exited', 0, '']);
    expect(run.stdout).toBe('provider = "local"\nbeside\noriginal-hidden\n');
    expect(readFileSync(join(home, '.cfg', 'agent.toml'), 'utf8')).toBe('provider = "local"\n');
  });
});
