/**
 * The example workspace's showcase run (examples/workspace/README.md): in a fresh clone the
 * project is a folder below its repository's top, and `gate prereview` must pass there —
 * its script runs `git diff`, so the sandbox shows the enclosing repository's git directory,
 * read-only (SPEC §11.2). Driven through the built CLI, from the folder the README names.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enclosingGit } from '../../main/services/sandbox/protect';
import { expectNoStack, requireBuiltCli } from '../cli/helpers';
import { repoRoot, runCli } from '../support/paths';
import { bwrapWorks, cleanup, NODE_SHEBANG, project, run, tempDir } from './helpers';

const ok = await bwrapWorks();
beforeAll(requireBuiltCli);
afterAll(cleanup);

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A repository laid out as Skillsmith's own (the example two folders down), then cloned. */
function freshClone(): string {
  const origin = tempDir('skillsmith-origin-');
  mkdirSync(join(origin, 'examples'));
  cpSync(join(repoRoot, 'examples', 'workspace'), join(origin, 'examples', 'workspace'), { recursive: true });
  git(origin, 'init', '-q');
  git(origin, 'add', '-A');
  git(origin, 'commit', '-qm', 'init');
  const clone = join(tempDir('skillsmith-clone-'), 'skillsmith');
  git(origin, 'clone', '-q', origin, clone);
  return join(clone, 'examples', 'workspace');
}

describe.skipIf(!ok)('the example workspace in a fresh clone', () => {
  it('gate prereview passes, its verdict from the git diff it read', () => {
    const ws = freshClone();
    const r = runCli(['gate', 'prereview'], { cwd: ws });
    expect(r.stderr + r.stdout).not.toContain('not a git repository');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('prereview: no blocking problems');
    expect(r.stderr).toContain('gate: pass');
    const findings = JSON.parse(readFileSync(join(ws, '.kitbash', 'artifacts', 'findings.json'), 'utf8'));
    expect(findings).toMatchObject({ artifact: 'findings@1', skill: 'prereview@0.1.0', findings: [] });
    // The base is the clone's HEAD: git ran against the enclosing repository.
    expect(findings.subject.base).toBe(git(ws, 'rev-parse', 'HEAD').trim());
    expectNoStack(r);
  });

  it('fails the gate on what the pending diff adds, with an error finding', () => {
    const ws = freshClone();
    writeFileSync(join(ws, 'README.md'), `${readFileSync(join(ws, 'README.md'), 'utf8')}trailing   \n`);
    const r = runCli(['gate', 'prereview'], { cwd: ws });
    expect(r.code).toBe(1);
    const findings = JSON.parse(readFileSync(join(ws, '.kitbash', 'artifacts', 'findings.json'), 'utf8'));
    expect(findings.findings).toEqual([expect.objectContaining({ severity: 'error', rule: 'whitespace' })]);
  });

  it('a copy outside any repository passes with a note saying there was nothing to check', () => {
    const ws = join(tempDir('skillsmith-copy-'), 'workspace');
    cpSync(join(repoRoot, 'examples', 'workspace'), ws, { recursive: true });
    const r = runCli(['gate', 'prereview'], { cwd: ws });
    expect(r.code).toBe(0);
    const findings = JSON.parse(readFileSync(join(ws, '.kitbash', 'artifacts', 'findings.json'), 'utf8'));
    expect(findings.findings).toEqual([expect.objectContaining({ severity: 'note', rule: 'no-repository' })]);
  });

  it("the enclosing repository's git directory is readable and stays unwritable, even with write = true", async () => {
    const top = tempDir('skillsmith-repo-');
    git(top, 'init', '-q');
    const gitDir = join(top, '.git');
    const poke = `${NODE_SHEBANG}const fs = require('fs');
let r = fs.existsSync(${JSON.stringify(join(gitDir, 'HEAD'))}) ? 'read' : 'unseen';
try { fs.writeFileSync(${JSON.stringify(join(gitDir, 'hooks', 'pre-commit'))}, 'x'); r += ' wrote'; } catch { r += ' refused'; }
console.log(r);
`;
    const root = project({ poke: { toml: '[permissions]\nwrite = true', scripts: { 'poke.js': poke } } }, top);
    const r = await run({ projectRoot: root, skill: 'poke', script: 'poke.js' });
    expect(r.result.outcome).toBe('exited');
    expect(r.stdout.trim()).toBe('read refused');
    expect(existsSync(join(gitDir, 'hooks', 'pre-commit'))).toBe(false);
  });
});

describe('enclosingGit', () => {
  it('names the git directory above the project, and nothing at the top or outside a repository', () => {
    const top = tempDir('skillsmith-encl-');
    mkdirSync(join(top, '.git'));
    mkdirSync(join(top, 'a', 'b'), { recursive: true });
    expect(enclosingGit(join(top, 'a', 'b'), [])).toEqual([join(top, '.git')]);
    expect(enclosingGit(top, [])).toEqual([]);
    expect(enclosingGit(tempDir('skillsmith-nogit-'), [])).toEqual([]);
  });

  it('never a repository that holds a hidden home (a home kept in git)', () => {
    const home = tempDir('skillsmith-home-');
    mkdirSync(join(home, '.git'));
    mkdirSync(join(home, 'code', 'project'), { recursive: true });
    expect(enclosingGit(join(home, 'code', 'project'), [home])).toEqual([]);
    expect(enclosingGit(join(home, 'code', 'project'), [])).toEqual([join(home, '.git')]);
  });

  it('a worktree: the .git file, its git dir and the common dir', () => {
    const top = tempDir('skillsmith-wt-');
    const gitDir = join(top, 'main.git', 'worktrees', 'w');
    mkdirSync(gitDir, { recursive: true });
    writeFileSync(join(gitDir, 'commondir'), '../..\n');
    mkdirSync(join(top, 'w', 'sub'), { recursive: true });
    writeFileSync(join(top, 'w', '.git'), `gitdir: ${gitDir}\n`);
    expect(enclosingGit(join(top, 'w', 'sub'), [])).toEqual([join(top, 'w', '.git'), gitDir, join(top, 'main.git')]);
  });
});
