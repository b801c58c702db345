/**
 * Install never holds the main thread on git: a clone runs as an async child process, so
 * the desktop window (the IPC handler path) and the CLI's own timers keep running while it
 * lasts; nor does an eval trial's workspace, which the app commits on main's thread. git is
 * replaced on PATH by a stand-in that marks the start of the slowed verb, sleeps, and then
 * runs the real git; a timer that must fire while it sleeps proves the event loop kept
 * turning, and its longest lag in that window shows it was never held for git. (A
 * synchronous spawn would let no timer fire in that window.)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/dispatch';
import { makeWorkspace } from '../../main/services/evals/workspace';
import type { ReviewView } from '../../shared/ipc/channels/install';
import { testPlatform, testSession } from '../desktop/helpers';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, cli, gitAvailable, gitRepo, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

const haveGit = requireOrSkip('git', gitAvailable());
const realGit = haveGit ? spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim() : '';
const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
});

/** A git on PATH whose `verb` takes `seconds` longer; `busy` exists while one is sleeping. */
function slowGit(seconds: number, verb = 'clone'): { busy: string; done: string } {
  const dir = temp('skillsmith-slow-git-');
  const busy = join(dir, `${verb}-started`);
  const done = join(dir, `${verb}-slept`);
  writeFileSync(
    join(dir, 'git'),
    `#!/bin/sh\nfor a; do [ "$a" = ${verb} ] && { : > '${busy}'; sleep ${seconds}; : > '${done}'; break; }; done\nexec '${realGit}' "$@"\n`,
  );
  chmodSync(join(dir, 'git'), 0o755);
  process.env.PATH = `${dir}${delimiter}${savedPath ?? ''}`;
  return { busy, done };
}

/**
 * Watch a 10 ms timer while `work` runs: how many of its ticks land while the slowed git sleeps,
 * and the longest the timer was held past its due time in that window (its lag).
 */
async function ticksWhileGitSleeps<T>(
  marks: { busy: string; done: string },
  work: () => Promise<T>,
): Promise<[T, { ticks: number; maxLagMs: number }]> {
  const seen = { ticks: 0, maxLagMs: 0 };
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (existsSync(marks.busy) && !existsSync(marks.done)) {
      seen.ticks++;
      seen.maxLagMs = Math.max(seen.maxLagMs, now - last - 10);
    }
    last = now;
  }, 10);
  try {
    const value = await work();
    return [value, seen];
  } finally {
    clearInterval(timer);
  }
}

describe.skipIf(!haveGit)('a slow git clone does not hold the main thread', () => {
  it('the IPC handler path: timers fire while install.begin clones, and the review still comes back', async () => {
    const repo = gitRepo(skillFiles('', 'slowpoke'));
    const p = temp('skillsmith-loop-ipc-');
    write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
    const { session } = testSession(testPlatform(join(temp('skillsmith-loop-data-'), 'data')));
    session.open(p);
    const marks = slowGit(1.5);
    const [env, loop] = await ticksWhileGitSleeps(marks, () =>
      dispatch('install.begin', { source: repo.url }, { session }),
    );
    expect(existsSync(marks.done)).toBe(true); // the stand-in really ran, and slept
    // A synchronous clone would hold the timer for the whole 1.5 s sleep: no tick in it, or one lagging by all of it.
    expect(loop.ticks).toBeGreaterThanOrEqual(5);
    expect(loop.maxLagMs).toBeLessThan(1000);
    expect(env.ok).toBe(true);
    if (env.ok) expect((env.value as ReviewView).root).toBe('slowpoke');
  });

  it('the CLI: timers fire while install clones, and the skill is installed', async () => {
    const repo = gitRepo(skillFiles('', 'slowcli'));
    const p = temp('skillsmith-loop-cli-');
    write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
    const marks = slowGit(1.5);
    const [r, loop] = await ticksWhileGitSleeps(marks, () => cli(p, 'install', repo.url, '--yes'));
    expect(existsSync(marks.done)).toBe(true);
    // A synchronous clone would hold the timer for the whole 1.5 s sleep: no tick in it, or one lagging by all of it.
    expect(loop.ticks).toBeGreaterThanOrEqual(5);
    expect(loop.maxLagMs).toBeLessThan(1000);
    expect(r.code).toBe(0);
    expect(existsSync(join(p, '.kitbash', 'skills', 'slowcli', 'SKILL.md'))).toBe(true);
  });
});

describe.skipIf(!haveGit)("an eval trial's workspace does not hold the main thread", () => {
  it('timers fire while the trial repository is committed, and the workspace is whole', async () => {
    const fixture = temp('skillsmith-loop-fixture-');
    write(fixture, { 'src/app.ts': 'export const x = 1;\n', 'README.md': '# fixture\n' });
    const marks = slowGit(1.5, 'commit');
    const dir = join(temp('skillsmith-loop-trial-'), 'work');
    const [ws, loop] = await ticksWhileGitSleeps(marks, () => makeWorkspace({ dir, fixtureDir: fixture, target: 'x' }));
    expect(existsSync(marks.done)).toBe(true);
    // spawnSync would hold the timer for the whole 1.5 s sleep: no tick in it, or one lagging by all of it.
    expect(loop.ticks).toBeGreaterThanOrEqual(5);
    expect(loop.maxLagMs).toBeLessThan(1000);
    expect([...ws.before.keys()].sort()).toEqual(['README.md', 'src/app.ts']);
    const log = spawnSync('git', ['-C', dir, 'log', '--format=%s'], { encoding: 'utf8' });
    expect(log.stdout.trim()).toBe('trial fixture');
  });
});
