/**
 * No leftovers: an install killed mid-staging (kill -9) leaves its clone and staging
 * copies in the temp folder; the next command of any kind removes them — only those
 * (ours by name and owner, whose process is dead), never anything else there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { leftoverVerdict, sweepLeftovers } from '../../main/services/sources/temp';
import { builtCliExists } from '../cli/helpers';
import { requireOrSkip, skillsmithBin } from '../support/paths';
import { cleanupTemps, gitAvailable, gitRepo, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

/** A pid that was just in use and is now free (a child that has exited). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const dir = { isDirectory: () => true, isSymbolicLink: () => false };
const me = { pid: 100, uid: 1000, now: Date.now() };

describe('which temp folders are leftovers', () => {
  it('ours, owned by this user, of a dead process: removed; anything else: kept', () => {
    const dead = () => false;
    const alive = () => true;
    const st = { ...dir, uid: 1000, mtimeMs: me.now };
    expect(leftoverVerdict('skillsmith-stage-4242-Ab12Cd', st, me, dead)).toBe(true);
    expect(leftoverVerdict('skillsmith-clone-4242-Ab12Cd', st, me, dead)).toBe(true);
    expect(leftoverVerdict('skillsmith-netprobe-4242-Ab12Cd', st, me, dead)).toBe(true);
    expect(leftoverVerdict('skillsmith-netprobe-4242-Ab12Cd', st, me, alive)).toBe(false);
    expect(leftoverVerdict('skillsmith-stage-4242-Ab12Cd', st, me, alive)).toBe(false);
    // This very process, another user's folder, a symlink, a file, someone else's name.
    expect(leftoverVerdict('skillsmith-stage-100-Ab12Cd', st, me, dead)).toBe(false);
    expect(leftoverVerdict('skillsmith-stage-4242-Ab12Cd', { ...st, uid: 0 }, me, dead)).toBe(false);
    expect(leftoverVerdict('skillsmith-stage-4242-Ab12Cd', { ...st, isSymbolicLink: () => true }, me, dead)).toBe(
      false,
    );
    expect(leftoverVerdict('skillsmith-stage-4242-Ab12Cd', { ...st, isDirectory: () => false }, me, dead)).toBe(false);
    expect(leftoverVerdict('skillsmith-run-4242-Ab12Cd', st, me, dead)).toBe(false);
    expect(leftoverVerdict('my-stage-4242-Ab12Cd', st, me, dead)).toBe(false);
    // A folder from before the pid was in the name: only after a day.
    expect(leftoverVerdict('skillsmith-stage-Ab12Cd', st, me, dead)).toBe(false);
    expect(leftoverVerdict('skillsmith-stage-Ab12Cd', { ...st, mtimeMs: me.now - 2 * 86_400_000 }, me, dead)).toBe(
      true,
    );
  });

  it("the sweep removes a dead process's folders and keeps a live one's, a symlink and unrelated folders", async () => {
    const tmp = temp('skillsmith-sweep-');
    const gone = `skillsmith-stage-${deadPid()}-Zz9Yy8`;
    const live = `skillsmith-clone-${process.pid === 1 ? 2 : 1}-Zz9Yy8`; // pid 1 (init) is always alive
    const mine = `skillsmith-stage-${process.pid}-Zz9Yy8`;
    write(tmp, {
      [`${gone}/x/SKILL.md`]: 'staged',
      [`${live}/SKILL.md`]: 'live',
      [`${mine}/SKILL.md`]: 'mine',
      'unrelated/keep.txt': 'keep',
    });
    const target = join(tmp, 'unrelated');
    symlinkSync(target, join(tmp, `skillsmith-stage-${deadPid()}-Link01`));
    expect(await sweepLeftovers(tmp)).toEqual([gone]);
    expect(readdirSync(tmp).sort()).toEqual(
      [live, mine, readdirSync(tmp).find((n) => n.endsWith('Link01'))!, 'unrelated'].sort(),
    );
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);
  });
});

const ready = requireOrSkip('built CLI (npm run build)', builtCliExists()) && requireOrSkip('git', gitAvailable());

describe.skipIf(!ready)('an install killed mid-staging', () => {
  it('leaves its clone and staging copies, and the next command (list) removes them', () => {
    const tmp = temp('skillsmith-crash-tmp-');
    const env = { ...process.env, TMPDIR: tmp };
    const run = (cwd: string, args: string[], extra: Record<string, string> = {}) =>
      spawnSync(process.execPath, [skillsmithBin, ...args], {
        cwd,
        encoding: 'utf8',
        env: { ...env, ...extra },
        timeout: 120_000,
      });
    const repo = gitRepo(skillFiles('s/app', 'app'));
    const project = temp('skillsmith-crash-');
    write(project, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
    // Not ours to touch: an unrelated folder and a live process's staging copy.
    mkdirSync(join(tmp, 'someone-elses'));
    writeFileSync(join(tmp, 'someone-elses', 'file'), 'x');
    const live = `skillsmith-stage-${process.pid}-Live01`;
    write(tmp, { [`${live}/SKILL.md`]: 'in use' });

    const killed = run(project, ['install', `${repo.url}#:s/app`, '--yes'], { SKILLSMITH_FAULT: 'install:staged' });
    expect(killed.signal).toBe('SIGKILL');
    const left = readdirSync(tmp).filter((n) => /^skillsmith-(?:clone|stage)-\d+-/.test(n) && n !== live);
    expect(left.map((n) => n.replace(/-\d+-.*$/, '')).sort()).toEqual(['skillsmith-clone', 'skillsmith-stage']);
    expect(
      existsSync(
        join(
          tmp,
          left.find((n) => n.startsWith('skillsmith-stage'))!,
          'app',
          'SKILL.md',
        ),
      ),
    ).toBe(true);

    const list = run(project, ['list']);
    expect(list.status).toBe(0);
    expect(readdirSync(tmp).sort()).toEqual([live, 'someone-elses'].sort());
    expect(existsSync(join(project, '.kitbash', 'skills', 'app'))).toBe(false);
  });
});
