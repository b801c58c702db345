/**
 * Issue 38 item 4 (D183): a write-granted run writes a staged copy of the project; what it
 * changed reaches the project only by the rules, with real bubblewrap. Each test runs the
 * granted direction where it must work and the attacks where they must fail, and checks the
 * real files, not only what the run was told.
 */
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAudit } from '../../main/services/runs/audit';
import { bwrapWorks, cleanup, NODE_SHEBANG, project, run, tempDir, unconfinedHost } from './helpers';

const ok = await bwrapWorks();
afterAll(cleanup);

/** Each argument `op:path[:arg]`: write (append a line), mkdir, rm, symlink (to arg), link (hard, to arg). */
const CHANGE = `${NODE_SHEBANG}
const fs = require('fs'), path = require('path');
const out = {};
for (const a of process.argv.slice(2)) {
  const [op, p, arg] = a.split(':');
  try {
    if (op === 'write') { fs.mkdirSync(path.dirname(p), { recursive: true }); fs.appendFileSync(p, 'written by the run\\n'); }
    else if (op === 'mkdir') fs.mkdirSync(p, { recursive: true });
    else if (op === 'rm') fs.rmSync(p);
    else if (op === 'symlink') fs.symlinkSync(arg, p);
    else if (op === 'link') fs.linkSync(arg, p);
    out[p] = 'done';
  } catch (e) { out[p] = e.code; }
}
console.log(JSON.stringify(out));
`;

const scripts = { 'change.js': CHANGE };
const writer = { scripts, toml: '[permissions]\nwrite = true\n' };
const reader = { scripts };

/** The attacks: places a write becomes code or settings another program runs later. */
const ATTACKS = [
  'src/.git/config',
  '.git/hooks/x',
  'src/.claude/settings.json',
  'src/.mcp.json',
  'sub/AGENTS.md',
  '.npmrc',
  '.vscode/tasks.json',
  '.envrc',
  'kitbash.toml',
];

function seeded(skills: Parameters<typeof project>[0], base?: string): string {
  const root = project(skills, base);
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.ts'), 'export {};\n');
  writeFileSync(join(root, 'README.md'), 'readme\n');
  writeFileSync(join(root, 'old.txt'), 'old\n');
  writeFileSync(join(root, 'kitbash.toml'), '');
  return root;
}

type Writes = NonNullable<Awaited<ReturnType<typeof run>>['result']['writes']>;
const applied = (w: Writes | undefined) => (w?.applied ?? []).map((a) => `${a.change} ${a.path}`);
const refused = (w: Writes | undefined) => Object.fromEntries((w?.refused ?? []).map((r) => [r.path, r.reason]));

describe.skipIf(!ok)('issue 38.4 — write grants do what users mean, and nothing more', () => {
  it('a write-granted script creates REVIEW.md and a new folder at the root; every protected write is refused and named', async () => {
    const root = seeded({ writer });
    const r = await run({
      projectRoot: root,
      skill: 'writer',
      script: 'change.js',
      args: [
        'write:REVIEW.md',
        'mkdir:notes',
        'write:notes/today.md',
        'write:README.md',
        'rm:old.txt',
        ...ATTACKS.map((p) => `write:${p}`),
      ],
    });
    expect(r.result.outcome).toBe('exited');
    expect(readFileSync(join(root, 'REVIEW.md'), 'utf8')).toBe('written by the run\n');
    expect(statSync(join(root, 'notes')).isDirectory()).toBe(true);
    expect(readFileSync(join(root, 'notes', 'today.md'), 'utf8')).toBe('written by the run\n');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('readme\nwritten by the run\n');
    expect(existsSync(join(root, 'old.txt'))).toBe(false);
    expect(applied(r.result.writes)).toEqual([
      'changed README.md',
      'added REVIEW.md',
      'added notes',
      'added notes/today.md',
      // An ordinary folder the run made to hold a refused file: applied, empty.
      'added sub',
      'deleted old.txt',
    ]);
    // The project's own protected top-level entries (.git, kitbash.toml) are the real ones,
    // read-only, in the run: the write fails there. Every other attack lands in the copy and
    // is refused by name when applied.
    const out = JSON.parse(r.stdout) as Record<string, string>;
    const why = refused(r.result.writes);
    for (const p of ['.git/hooks/x', 'kitbash.toml']) expect([p, out[p], why[p]]).toEqual([p, 'EROFS', undefined]);
    for (const p of ATTACKS.filter((a) => out[a] !== 'EROFS'))
      expect([p, out[p], why[p]]).toEqual([p, 'done', expect.stringMatching(/^protected: /)]);
    expect(Object.keys(why).length).toBeGreaterThanOrEqual(ATTACKS.length - 2);
    // The real files are untouched and none of the new ones exists.
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(readFileSync(join(root, 'kitbash.toml'), 'utf8')).toBe('');
    for (const p of ATTACKS.filter((p) => p !== 'kitbash.toml'))
      expect([p, existsSync(join(root, p))]).toEqual([p, false]);
    for (const d of ['src/.git', 'src/.claude', '.vscode']) expect([d, existsSync(join(root, d))]).toEqual([d, false]);
    // The CLI's words and the audit log name them too.
    const log = readAudit(root).at(-1);
    expect(log?.writes?.applied).toContain('added REVIEW.md');
    expect(log?.writes?.refused.some((l) => l.startsWith('src/.git/config: protected'))).toBe(true);

    // control: unconfined, the same script plants them in the project: the test can fail.
    const bare = seeded({ writer }, tempDir('skillsmith-bare-'));
    const u = await run(
      {
        projectRoot: bare,
        skill: 'writer',
        script: 'change.js',
        args: ['write:src/.git/config', 'write:src/.mcp.json'],
        unconfined: true,
      },
      unconfinedHost(),
    );
    expect(u.result.writes).toBeUndefined();
    expect(readFileSync(join(bare, 'src', '.git', 'config'), 'utf8')).toBe('written by the run\n');
    expect(existsSync(join(bare, 'src', '.mcp.json'))).toBe(true);
  });

  it('a symlink the run makes to outside the project is not applied; one inside it is', async () => {
    const root = seeded({ writer });
    const r = await run({
      projectRoot: root,
      skill: 'writer',
      script: 'change.js',
      args: [
        'symlink:passwd:/etc/passwd',
        'symlink:up:../../..',
        'symlink:readme-link:README.md',
        'symlink:cfg:.git/config',
      ],
    });
    expect(JSON.parse(r.stdout)).toEqual({ passwd: 'done', up: 'done', 'readme-link': 'done', cfg: 'done' });
    expect(refused(r.result.writes)).toEqual({
      passwd: 'a symlink pointing outside the project (/etc/passwd)',
      up: 'a symlink pointing outside the project (../../..)',
      cfg: 'a symlink into .git, which is protected (.git/config)',
    });
    for (const p of ['passwd', 'up', 'cfg']) expect([p, existsSync(join(root, p))]).toEqual([p, false]);
    // control: the same run's link inside the project is applied, so the refusals are the rule's doing.
    expect(readlinkSync(join(root, 'readme-link'))).toBe('README.md');
  });

  it('a hard link is never applied as a link: an outside file stays untouched, a linked copy is its own file', async () => {
    const root = seeded({ writer });
    // The project's file is a hard link to a file outside it (placed by hand, before the run).
    const outside = join(tempDir('skillsmith-outside-'), 'precious.txt');
    writeFileSync(outside, 'precious\n');
    linkSync(outside, join(root, 'shared.txt'));
    const r = await run({
      projectRoot: root,
      skill: 'writer',
      script: 'change.js',
      args: ['write:shared.txt', 'link:etc-hostname:/etc/hostname', 'link:twin.md:README.md'],
    });
    const out = JSON.parse(r.stdout);
    // Outside files are on other, read-only mounts in the run: a link to one cannot even be made.
    expect(out['etc-hostname']).toBe('EXDEV');
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(root, 'shared.txt'), 'utf8')).toBe('precious\nwritten by the run\n');
    expect(lstatSync(join(root, 'shared.txt')).ino).not.toBe(lstatSync(outside).ino);
    expect(lstatSync(join(root, 'twin.md')).nlink).toBe(1);
    expect(lstatSync(join(root, 'twin.md')).ino).not.toBe(lstatSync(join(root, 'README.md')).ino);
    expect(readFileSync(join(root, 'twin.md'), 'utf8')).toBe('readme\n');

    // control: unconfined, the append goes through the link and changes the outside file.
    linkSync(outside, join(root, 'again.txt'));
    await run(
      { projectRoot: root, skill: 'writer', script: 'change.js', args: ['write:again.txt'], unconfined: true },
      unconfinedHost(),
    );
    expect(readFileSync(outside, 'utf8')).toBe('precious\nwritten by the run\n');
  });

  it('a run without write changes nothing, and is told so by the file system itself', async () => {
    const root = seeded({ reader });
    const r = await run({
      projectRoot: root,
      skill: 'reader',
      script: 'change.js',
      args: ['write:REVIEW.md', 'write:README.md', 'rm:old.txt'],
    });
    expect(JSON.parse(r.stdout)).toEqual({ 'REVIEW.md': 'EROFS', 'README.md': 'EROFS', 'old.txt': 'EROFS' });
    expect(r.result.writes).toBeUndefined();
    expect(existsSync(join(root, 'REVIEW.md'))).toBe(false);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('readme\n');
    expect(existsSync(join(root, 'old.txt'))).toBe(true);
  });
});
