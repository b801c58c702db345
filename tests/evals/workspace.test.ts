/**
 * A trial's workspace is built on the host with git (SPEC.md "Evals", Trials): a fixture is
 * someone else's folder, and a `.git` in it must never lend those git calls its config —
 * core.fsmonitor and hooks run programs on the host, outside the sandbox.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeWorkspace } from '../../main/services/evals/workspace';
import { cleanup, tempDir } from '../sandbox/helpers';

afterAll(cleanup);

/** Every path under `root` named `.git`, relative to it. */
function gitEntries(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${d.name}` : d.name;
    if (d.name.toLowerCase() === '.git') out.push(r);
    else if (d.isDirectory()) out.push(...gitEntries(root, r));
  }
  return out;
}

describe('trial workspaces never run a fixture’s git configuration', () => {
  it('strips every .git of the fixture before git runs, so its fsmonitor and hooks never fire', async () => {
    const base = tempDir('skillsmith-eval-ws-');
    const marker = join(base, 'MARKER');
    const hook = join(base, 'hook.sh');
    writeFileSync(hook, `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(marker)}\n`);
    chmodSync(hook, 0o755);
    const fixture = join(base, 'fixture');
    const config = `[core]\n\tfsmonitor = ${JSON.stringify(hook)}\n\thooksPath = ${JSON.stringify(base)}\n`;
    for (const repo of [fixture, join(fixture, 'nested'), join(fixture, 'deep', 'er')]) {
      mkdirSync(join(repo, '.git', 'hooks'), { recursive: true });
      writeFileSync(join(repo, '.git', 'config'), config);
      writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(repo, 'file.txt'), 'content\n');
    }
    for (const name of ['pre-commit', 'post-commit', 'pre-auto-gc']) {
      writeFileSync(join(fixture, '.git', 'hooks', name), `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n`);
      chmodSync(join(fixture, '.git', 'hooks', name), 0o755);
    }
    mkdirSync(join(fixture, 'linked'));
    writeFileSync(join(fixture, 'linked', '.git'), `gitdir: ${join(fixture, '.git')}\n`);
    mkdirSync(join(fixture, 'upper', '.GIT'), { recursive: true });
    writeFileSync(join(fixture, 'upper', '.GIT', 'config'), config);

    const dir = join(base, 'work');
    const ws = await makeWorkspace({ dir, fixtureDir: fixture, target: 'claude-code' });

    expect(existsSync(marker)).toBe(false);
    // Only the repository git init made; the fixture's files are all there and committed.
    expect(gitEntries(dir)).toEqual(['.git']);
    expect([...ws.before.keys()].sort()).toEqual(['deep/er/file.txt', 'file.txt', 'nested/file.txt']);
    const tracked = execFileSync('git', ['-c', 'core.fsmonitor=false', 'ls-files'], { cwd: dir, encoding: 'utf8' });
    expect(tracked.trim().split('\n')).toEqual(['deep/er/file.txt', 'file.txt', 'nested/file.txt']);
    expect(existsSync(marker)).toBe(false);
  });
});
