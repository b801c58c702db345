/**
 * Crash safety and concurrency, against the built CLI. A fault point SIGKILLs the
 * process at one step of a change; afterwards the project must be in the old or the new
 * state (after the next command's recovery), with a lock that matches the files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLock, skillIntegrity } from '../../main/services/lock';
import { builtCliExists } from '../cli/helpers';
import { repoRoot, skillsmithBin, type RunResult } from '../support/paths';
import { cleanupTemps, gitAvailable, gitRepo, skillFiles, temp, write } from './helpers';
import { requireOrSkip } from '../support/paths';

afterAll(cleanupTemps);

const ready = requireOrSkip('built CLI (npm run build)', builtCliExists()) && requireOrSkip('git', gitAvailable());

/**
 * A private copy of the built CLI (out/ is shared with other suites that rebuild it), under
 * node_modules/.cache so the bundle still resolves its dependencies from node_modules/.
 */
let bin = skillsmithBin;
function freezeCli(): void {
  const dir = join(repoRoot, 'node_modules', '.cache', `skillsmith-ws-cli-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  cpSync(join(repoRoot, 'out'), join(dir, 'out'), { recursive: true });
  cpSync(skillsmithBin, join(dir, 'bin', 'skillsmith.cjs'));
  bin = join(dir, 'bin', 'skillsmith.cjs');
  frozen.push(dir);
}
const frozen: string[] = [];
afterAll(() => frozen.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Killed children cannot remove their staging folders: give them a TMPDIR this suite deletes. */
let childTmp: string | undefined;
function run(cwd: string, args: string[], env: Record<string, string> = {}): RunResult {
  childTmp ??= temp('skillsmith-fault-tmp-');
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: childTmp, ...env },
    timeout: 120_000,
  });
  return { code: r.status === null ? -1 : r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (ready) freezeCli();
});

/** The installed set as data: name → tree hash, plus the lock's bytes. */
function snapshot(p: string): { skills: Record<string, string>; lock: string | null } {
  const dir = join(p, '.kitbash', 'skills');
  const skills: Record<string, string> = {};
  if (existsSync(dir)) {
    for (const n of readdirSync(dir)
      .filter((d) => !d.startsWith('.'))
      .sort()) {
      const h = skillIntegrity(join(dir, n));
      skills[n] = h.ok ? h.value : 'unreadable';
    }
  }
  const lp = join(p, 'kitbash.lock');
  return { skills, lock: existsSync(lp) ? readFileSync(lp, 'utf8') : null };
}

/** Every pin matches its folder and every folder is pinned. */
function expectConsistent(p: string): void {
  const l = readLock(p);
  if (!l.ok) throw new Error(l.error.message);
  const s = snapshot(p);
  expect(Object.keys(s.skills).sort()).toEqual(l.value.entries.map((e) => e.name).sort());
  for (const e of l.value.entries) expect(s.skills[e.name], e.name).toBe(e.integrity);
}

function cloneProject(from: string): string {
  const to = temp('skillsmith-fault-');
  spawnSync('cp', ['-a', `${from}/.`, to]);
  return to;
}

describe.skipIf(!ready)('fault injection: kill -9 at every step', () => {
  let base: string;
  let repoUrl: string;
  let installedState: ReturnType<typeof snapshot>;
  let updatedState: ReturnType<typeof snapshot>;
  let removedState: ReturnType<typeof snapshot>;

  beforeAll(() => {
    const repo = gitRepo({ ...skillFiles('s/app', 'app', { deps: { lib: '^1' } }), ...skillFiles('s/lib', 'lib') });
    repoUrl = `${repo.url}#:s/app`;
    base = temp('skillsmith-fault-base-');
    write(base, {
      'kitbash.toml': '[project]\ntargets = ["claude-code", "agentsmd"]\n',
      ...skillFiles('v/keep', 'keep'),
    });
    expect(run(base, ['install', 'file:./v/keep', '--yes']).code).toBe(0);
    // Reference outcomes, computed once without faults.
    const a = cloneProject(base);
    const ia = run(a, ['install', repoUrl, '--yes']);
    expect(ia.stderr).toBe('');
    expect(ia.code).toBe(0);
    installedState = snapshot(a);
    repo.commit(
      skillFiles('s/app', 'app', {
        version: '1.1.0',
        deps: { lib: '^1' },
        body: '# app\n\nVersion two of the app skill.\n',
      }),
    );
    const u = cloneProject(a);
    expect(run(u, ['update', 'app', '--yes']).code).toBe(0);
    updatedState = snapshot(u);
    const r = cloneProject(a);
    expect(run(r, ['remove', 'app', '--yes']).code).toBe(0);
    removedState = snapshot(r);
    // The update and remove runs start from the installed state `a`.
    base = a;
  });

  const steps = ['copied', 'journal', 'moved-old', 'placed', 'locked', 'before-compile', 'compiled'];

  it('install: old or new state after a kill at each step', () => {
    const start = temp('skillsmith-fault-i-');
    write(start, {
      'kitbash.toml': '[project]\ntargets = ["claude-code", "agentsmd"]\n',
      ...skillFiles('v/keep', 'keep'),
    });
    expect(run(start, ['install', 'file:./v/keep', '--yes']).code).toBe(0);
    const before = snapshot(start);
    let killed = 0;
    for (const step of steps) {
      const p = cloneProject(start);
      const r = run(p, ['install', repoUrl, '--yes'], { SKILLSMITH_FAULT: `install:${step}` });
      if (r.code === -1) killed++;
      // Before any recovery, the lock on disk is whole: the old bytes, or a parseable new lock pinning app.
      const lockNow = snapshot(p).lock;
      const parsed = readLock(p);
      expect(parsed.ok, `lock after install:${step}`).toBe(true);
      expect(
        lockNow === before.lock || (parsed.ok && parsed.value.entries.some((e) => e.name === 'app')),
        `lock after install:${step}`,
      ).toBe(true);
      run(p, ['doctor']); // the next command recovers an interrupted change
      const after = snapshot(p);
      expectConsistent(p);
      const isOld = JSON.stringify(after.skills) === JSON.stringify(before.skills);
      const isNew = Object.keys(after.skills).sort().join() === 'app,keep,lib';
      expect(isOld || isNew, `install:${step} left ${JSON.stringify(after.skills)}`).toBe(true);
      expect(
        readdirSync(join(p, '.kitbash')).filter((d) => d.startsWith('.txn-') || d === '.skillsmith.lock'),
        `leftovers after install:${step}`,
      ).toEqual([]);
    }
    // moved-old does not fire for a fresh install (nothing is replaced); every other step does.
    expect(killed).toBe(steps.length - 1);
  });

  it('update: old or new state after a kill at each step', () => {
    let killed = 0;
    for (const step of steps) {
      const p = cloneProject(base);
      const r = run(p, ['update', 'app', '--yes'], { SKILLSMITH_FAULT: `update:${step}` });
      if (r.code === -1) killed++;
      run(p, ['doctor']);
      expectConsistent(p);
      const after = snapshot(p);
      const same = (x: ReturnType<typeof snapshot>) =>
        JSON.stringify(after.skills) === JSON.stringify(x.skills) && after.lock === x.lock;
      expect(same(installedState) || same(updatedState), `update:${step} left ${JSON.stringify(after.skills)}`).toBe(
        true,
      );
    }
    expect(killed).toBe(steps.length);
  });

  it('remove: old or new state after a kill at each step', () => {
    let killed = 0;
    for (const step of steps.filter((s) => s !== 'placed')) {
      const p = cloneProject(base);
      const r = run(p, ['remove', 'app', '--yes'], { SKILLSMITH_FAULT: `remove:${step}` });
      if (r.code === -1) killed++;
      run(p, ['doctor']);
      expectConsistent(p);
      const after = snapshot(p);
      const same = (x: ReturnType<typeof snapshot>) =>
        JSON.stringify(after.skills) === JSON.stringify(x.skills) && after.lock === x.lock;
      expect(same(installedState) || same(removedState), `remove:${step} left ${JSON.stringify(after.skills)}`).toBe(
        true,
      );
    }
    expect(killed).toBe(steps.length - 1);
  });

  it('compile killed at random moments: every generated file is whole (old or new), the lock still matches', async () => {
    // Files outside .kitbash/ and the project files: what compile owns or merges.
    const generated = (root: string): Map<string, string> => {
      const out = new Map<string, string>();
      const walk = (rel: string) => {
        for (const d of readdirSync(join(root, rel), { withFileTypes: true })) {
          const r = rel ? `${rel}/${d.name}` : d.name;
          if (!rel && ['.kitbash', 'kitbash.toml', 'kitbash.lock', 'v'].includes(d.name)) continue;
          if (d.isDirectory()) walk(r);
          else if (d.isFile() && !d.name.endsWith('.tmp')) out.set(r, readFileSync(join(root, r), 'utf8'));
        }
      };
      walk('');
      return out;
    };
    const p = cloneProject(base);
    // More targets, so compile has many files to write and one shared file to merge.
    writeFileSync(
      join(p, 'kitbash.toml'),
      '[project]\ntargets = ["claude-code", "cursor", "agents", "copilot", "gemini", "agentsmd", "aider"]\n',
    );
    const before = generated(p);
    const fresh = cloneProject(p);
    expect(run(fresh, ['compile']).code).toBe(0);
    const after = generated(fresh);
    expect(after.size).toBeGreaterThan(before.size + 5);
    let interrupted = 0;
    for (const delay of [5, 15, 30, 45, 60, 90, 120]) {
      const q = cloneProject(p);
      const code = await new Promise<number | null>((res) => {
        const child = spawn(process.execPath, [bin, 'compile'], {
          cwd: q,
          stdio: 'ignore',
          env: { ...process.env, TMPDIR: childTmp ?? temp('skillsmith-fault-tmp-') },
        });
        const t = setTimeout(() => child.kill('SIGKILL'), delay);
        child.on('exit', (c) => {
          clearTimeout(t);
          res(c);
        });
      });
      if (code === null) interrupted++;
      for (const [path, text] of generated(q)) {
        expect([before.get(path), after.get(path)], `${path} after a kill at ${delay} ms`).toContain(text);
      }
      expectConsistent(q);
    }
    expect(interrupted).toBeGreaterThan(0);
  });
});

describe.skipIf(!ready)('project lock', () => {
  it('a dead holder is taken over; a live one makes the other wait, then fail with a clear message', async () => {
    const p = temp();
    write(p, {
      'kitbash.toml': '[project]\ntargets = ["claude-code"]\n',
      ...skillFiles('v/one', 'one'),
      ...skillFiles('v/two', 'two'),
    });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    write(p, {
      '.kitbash/.skillsmith.lock': JSON.stringify({
        pid: Number(dead.stdout),
        host: (await import('node:os')).hostname(),
        since: 'earlier',
        command: 'install',
      }),
    });
    const r = run(p, ['install', 'file:./v/one', '--yes', '--no-compile']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(p, '.kitbash', '.skillsmith.lock'))).toBe(false);

    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(join(p, '.kitbash', '.skillsmith.lock'))}, JSON.stringify({pid: process.pid, host: require('os').hostname(), since: 'now', command: 'test holder'})); setTimeout(() => {}, 60000)`,
      ],
      { stdio: 'ignore' },
    );
    await new Promise((res) => setTimeout(res, 300));
    const t0 = Date.now();
    const busy = run(p, ['install', 'file:./v/two', '--yes', '--no-compile'], { SKILLSMITH_LOCK_TIMEOUT_MS: '400' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(
      new RegExp(
        `another skillsmith process \\(pid ${holder.pid}, running "test holder" since now\\) is changing this project — wait for it to finish`,
      ),
    );
    expect(busy.stderr.trim().split('\n')).toHaveLength(1);
    holder.kill('SIGKILL');
    await new Promise((res) => holder.on('exit', res));
    expect(run(p, ['install', 'file:./v/two', '--yes', '--no-compile']).code).toBe(0);
    expectConsistent(p);
  });

  it('two installs started together are serialised: both land in the lock', async () => {
    const p = temp();
    write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
    const names = ['c1', 'c2', 'c3', 'c4'];
    for (const n of names) write(p, skillFiles(`v/${n}`, `skill-${n}`));
    const runs = names.map(
      (n) =>
        new Promise<number>((res) => {
          const child = spawn(process.execPath, [bin, 'install', `file:./v/${n}`, '--yes'], {
            cwd: p,
            stdio: 'ignore',
          });
          child.on('exit', (code) => res(code ?? -1));
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0]);
    const l = readLock(p);
    expect(l.ok && l.value.entries.map((e) => e.name)).toEqual(names.map((n) => `skill-${n}`));
    expectConsistent(p);
  });
});
