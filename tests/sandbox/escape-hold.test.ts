/**
 * The escape suite for issue 15: what a granted permission can and cannot reach, with
 * real bubblewrap. Each test runs the attack where it must fail, the granted thing where
 * it must work, and (where the sandbox is the only thing in the way) the same script
 * without the sandbox, which succeeds: the test fails when the restriction is missing.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../support/paths';
import { bwrapWorks, cleanup, CONNECT, NODE_SHEBANG, project, run, tempDir, unconfinedHost } from './helpers';
import { canMakeNetns, startTestHost, type TestHost } from './netns-host';
import { GREETING, tcpServer } from './servers';

const ok = await bwrapWorks();
const netnsOk = ok && requireOrSkip('root with iproute2 (ip netns) for the network test host', canMakeNetns());
afterAll(cleanup);

const UNIX = `${NODE_SHEBANG}
const s = require('net').connect(process.argv[2].replace(/^@/, '\\0'));
let data = '';
s.on('data', (d) => (data += d));
s.on('end', () => { console.log('connected: ' + data); process.exit(0); });
s.on('error', (e) => { console.log('blocked: ' + e.code); process.exit(3); });
`;

/** Each argument is a path relative to the project (or absolute): make its folder, append to it. */
const WRITE = `${NODE_SHEBANG}
const fs = require('fs'), path = require('path');
const out = {};
for (const p of process.argv.slice(2)) {
  const abs = path.resolve(process.cwd(), p);
  let cur = '/';
  try {
    // One level at a time: a recursive mkdir reports a read-only parent as ENOENT.
    for (const part of path.dirname(abs).split('/').filter(Boolean)) { cur = path.join(cur, part); if (!fs.existsSync(cur)) fs.mkdirSync(cur); }
    fs.appendFileSync(abs, 'planted\\n');
    out[p] = 'written';
  } catch (e) { out[p] = e.code; }
}
console.log(JSON.stringify(out));
`;

const READ = `${NODE_SHEBANG}
const fs = require('fs');
const out = {};
for (const p of process.argv.slice(2)) {
  try { const st = fs.statSync(p); out[p] = st.isDirectory() ? 'dir:' + fs.readdirSync(p).length : 'file:' + fs.readFileSync(p).length; } catch (e) { out[p] = e.code; }
}
console.log(JSON.stringify(out));
`;

const scripts = { 'connect.js': CONNECT, 'unix.js': UNIX, 'write.js': WRITE, 'read.js': READ };
const locked = { scripts };
const netonly = { scripts, toml: '[permissions]\nnetwork = true\n' };
const writer = { scripts, toml: '[permissions]\nwrite = true\n' };

function parse(stdout: string): Record<string, string> {
  return JSON.parse(stdout) as Record<string, string>;
}

describe.skipIf(!ok)('issue 15 — write means the project, not what runs later', () => {
  /** Places a write becomes code or config another program runs; none exists beforehand. */
  const planted = [
    '.claude/settings.json',
    '.claude/skills/x/SKILL.md',
    '.cursor/rules/x.mdc',
    '.agents/skills/x/SKILL.md',
    '.codex/config.toml',
    '.gemini/settings.json',
    '.windsurf/rules/x.md',
    '.devin/rules/x.md',
    '.github/workflows/x.yml',
    '.github/copilot-instructions.md',
    'CLAUDE.md',
    'AGENTS.md',
    '.mcp.json',
    '.vscode/mcp.json',
    '.vscode/tasks.json',
    '.idea/workspace.xml',
    '.husky/pre-commit',
    '.githooks/pre-commit',
    'lefthook.yml',
    '.pre-commit-config.yaml',
    '.envrc',
    'kitbash.toml',
    '.kitbash/skills/evil/SKILL.md',
    '.git',
    'tools/hooks/pre-commit',
    'gitdata/config',
    'gitdata/hooks/pre-commit',
    'vendor/lib/.git',
    'conf/extra.gitconfig',
    '.gitmodules',
  ];

  it('(15.1) protected paths that do not exist cannot be created; existing project files are written', async () => {
    const root = project({ writer });
    // A repository whose .git is a file pointing at a folder inside the project, with its hooks under tools/hooks.
    mkdirSync(join(root, 'gitdata'));
    writeFileSync(
      join(root, 'gitdata', 'config'),
      '[core]\n\thooksPath = tools/hooks\n[include]\n\tpath = ../conf/extra.gitconfig\n',
    );
    // A submodule whose .git file names its git dir, and a config file git includes.
    writeFileSync(join(root, '.gitmodules'), '[submodule "lib"]\n\tpath = vendor/lib\n');
    mkdirSync(join(root, 'vendor', 'lib'), { recursive: true });
    writeFileSync(join(root, 'vendor', 'lib', '.git'), 'gitdir: ../../gitdata/modules/lib\n');
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, '.git'), 'gitdir: gitdata\n');
    mkdirSync(join(root, 'tools'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'README.md'), 'readme\n');
    const granted = ['src/new-file.txt', 'src/deep/new/file.txt', 'README.md', 'vendor/lib/code.txt'];

    const r = await run({ projectRoot: root, skill: 'writer', script: 'write.js', args: [...planted, ...granted] });
    const out = parse(r.stdout);
    // An existing protected entry is the real one, read-only, in the run (EROFS); anything
    // else lands in the run's staged copy and is refused by name when applied (D183).
    const why = Object.fromEntries((r.result.writes?.refused ?? []).map((w) => [w.path, w.reason]));
    for (const p of planted)
      expect([p, out[p] === 'EROFS' || (out[p] === 'written' && /^protected: /.test(why[p] ?? ''))]).toEqual([p, true]);
    expect(why['tools/hooks/pre-commit']).toBe('protected: tools/hooks is part of the git directory or its hooks');
    for (const p of granted) expect([p, out[p]]).toEqual([p, 'written']);
    for (const p of planted)
      if (!['.git', 'gitdata/config', 'vendor/lib/.git', '.gitmodules'].includes(p))
        expect([p, existsSync(join(root, p))]).toEqual([p, false]);
    expect(readFileSync(join(root, 'gitdata', 'config'), 'utf8')).not.toContain('planted');
    for (const f of ['.gitmodules', 'vendor/lib/.git', '.git'])
      expect([f, readFileSync(join(root, f), 'utf8')]).toEqual([f, expect.not.stringContaining('planted')]);
    expect(readFileSync(join(root, 'src', 'new-file.txt'), 'utf8')).toBe('planted\n');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('readme\nplanted\n');
    // Nothing was left behind by the protection itself (no placeholder folders on the host).
    expect(existsSync(join(root, '.claude'))).toBe(false);
    const row = r.events.find((e) => e.type === 'started');
    const what = row?.type === 'started' ? row.plan.rows.find((x) => x.id === 'filesystem')?.what : '';
    for (const name of ['.claude', '.mcp.json', '.husky', '.vscode', 'lefthook*.yml', '.envrc', 'kitbash.*', '.git'])
      expect(what).toContain(name);

    // Without the sandbox the same script plants every one of them: the test can fail.
    const bare = tempDir('skillsmith-bare-');
    const copy = project({ writer }, bare);
    const u = await run(
      {
        projectRoot: copy,
        skill: 'writer',
        script: 'write.js',
        args: ['.claude/settings.json', '.mcp.json', '.husky/pre-commit'],
        unconfined: true,
      },
      unconfinedHost(),
    );
    expect(parse(u.stdout)).toEqual({
      '.claude/settings.json': 'written',
      '.mcp.json': 'written',
      '.husky/pre-commit': 'written',
    });
  });

  it("(15.1) in a monorepo the parent repository's .git is out of reach", async () => {
    const mono = tempDir('skillsmith-mono-', '/var/tmp');
    mkdirSync(join(mono, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(mono, '.git', 'config'), '[core]\n');
    const pkg = join(mono, 'packages', 'app');
    mkdirSync(pkg, { recursive: true });
    const { installSkills } = await import('./helpers');
    installSkills(pkg, { writer });
    const r = await run({
      projectRoot: pkg,
      skill: 'writer',
      script: 'write.js',
      args: ['../../.git/config', '../../.git/hooks/pre-commit'],
    });
    // The parent is not even visible: its folders are empty stand-ins on the sandbox's read-only root.
    expect(parse(r.stdout)).toEqual({ '../../.git/config': 'EROFS', '../../.git/hooks/pre-commit': 'EROFS' });
    expect(readFileSync(join(mono, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(mono, '.git', 'hooks', 'pre-commit'))).toBe(false);
    // Unconfined, the same script rewrites the parent's git config.
    const u = await run(
      { projectRoot: pkg, skill: 'writer', script: 'write.js', args: ['../../.git/config'], unconfined: true },
      unconfinedHost(),
    );
    expect(parse(u.stdout)).toEqual({ '../../.git/config': 'written' });
  });
});

describe.skipIf(!ok)('issue 15 — network means the outside world, not this machine', () => {
  let host: TestHost | undefined;
  let abstractServer: Server | undefined;
  let pathServer: Server | undefined;
  const abstractName = `@skillsmith-test-${process.pid}`;
  let sockDir = '';
  beforeAll(async () => {
    if (netnsOk) host = await startTestHost();
    abstractServer = createServer((c) => c.end(GREETING));
    await new Promise<void>((r) => abstractServer!.listen(abstractName.replace(/^@/, '\0'), r));
    sockDir = tempDir('skillsmith-sock-', '/var/tmp');
    pathServer = createServer((c) => c.end(GREETING));
    await new Promise<void>((r) => pathServer!.listen(join(sockDir, 'daemon.sock'), r));
  });
  afterAll(async () => {
    host?.close();
    await new Promise((r) => abstractServer?.close(r));
    await new Promise((r) => pathServer?.close(r));
  });

  it.skipIf(!netnsOk)(
    '(15.2) with network = true a test host in another namespace is reached; without it, not',
    async () => {
      const root = project({ netonly, locked });
      const r = await run({
        projectRoot: root,
        skill: 'netonly',
        script: 'connect.js',
        args: [host!.addr, String(host!.port)],
      });
      expect(r.stdout).toBe(`connected: ${GREETING}\n`);
      const started = r.events.find((e) => e.type === 'started');
      expect(started?.type === 'started' && started.plan.rows.find((x) => x.id === 'network')?.label).toBe(
        'enforced (bubblewrap)',
      );
      // control: the same connect without network permission is refused.
      const blocked = await run({
        projectRoot: root,
        skill: 'locked',
        script: 'connect.js',
        args: [host!.addr, String(host!.port)],
      });
      expect(blocked.stdout).toMatch(/^blocked: (ENETUNREACH|EHOSTUNREACH|ECONNREFUSED)/);
    },
  );

  it("(15.2) with network = true the host's loopback and its own addresses are not reached", async () => {
    const root = project({ netonly });
    const lo = await tcpServer();
    const own = netnsOk ? createServer((c) => c.end(GREETING)) : undefined;
    if (own) await new Promise<void>((r) => own.listen(0, host!.hostAddr, r));
    try {
      const a = await run({
        projectRoot: root,
        skill: 'netonly',
        script: 'connect.js',
        args: ['127.0.0.1', String(lo.port)],
      });
      expect(a.stdout).toMatch(/^blocked: /);
      expect(lo.connections()).toBe(0);
      if (own) {
        const port = (own.address() as { port: number }).port;
        const b = await run({
          projectRoot: root,
          skill: 'netonly',
          script: 'connect.js',
          args: [host!.hostAddr, String(port)],
        });
        expect(b.stdout).toMatch(/^blocked: /);
      }
      // The same connect without the sandbox reaches the host: the test can fail.
      const u = await run(
        {
          projectRoot: root,
          skill: 'netonly',
          script: 'connect.js',
          args: ['127.0.0.1', String(lo.port)],
          unconfined: true,
        },
        unconfinedHost(),
      );
      expect(u.stdout).toBe(`connected: ${GREETING}\n`);
    } finally {
      await lo.close();
      if (own) await new Promise((r) => own.close(r));
    }
  });

  it('(15.2) abstract and path Unix sockets are not reached, with or without network; /run is absent', async () => {
    const root = project({ netonly, locked });
    for (const skill of ['netonly', 'locked']) {
      for (const target of [abstractName, join(sockDir, 'daemon.sock')]) {
        const r = await run({ projectRoot: root, skill, script: 'unix.js', args: [target] });
        expect([skill, target, r.stdout]).toEqual([skill, target, expect.stringMatching(/^blocked: E/)]);
      }
    }
    const seen = await run({ projectRoot: root, skill: 'netonly', script: 'read.js', args: ['/run', '/var/run'] });
    expect(parse(seen.stdout)).toEqual({ '/run': 'ENOENT', '/var/run': 'ENOENT' });
    const u = await run(
      { projectRoot: root, skill: 'netonly', script: 'unix.js', args: [abstractName], unconfined: true },
      unconfinedHost(),
    );
    expect(u.stdout).toBe(`connected: ${GREETING}\n`);
  });
});

describe.skipIf(!ok)('issue 15 — reading is limited to what a script needs', () => {
  it('(15.3) system folders and the project are visible; secrets, other homes and host folders are not', async () => {
    const root = project({ locked });
    const other = tempDir('skillsmith-otherhome-', '/var/tmp');
    writeFileSync(join(other, 'secret.txt'), 'x');
    const secrets = ['/etc/shadow', '/etc/gshadow'].filter((p) => existsSync(p));
    const absent = ['/root', '/home', '/srv', '/mnt', '/media', '/var', join(other, 'secret.txt')];
    const visible = ['/usr/bin', '/etc/passwd', join(root, 'kitbash.lock')];
    const r = await run({
      projectRoot: root,
      skill: 'locked',
      script: 'read.js',
      args: [...secrets, ...absent, ...visible],
    });
    const out = parse(r.stdout);
    // Covered by /dev/null on a nodev mount: not openable at all.
    for (const s of secrets) expect([s, out[s]]).toEqual([s, 'EACCES']);
    for (const a of absent) expect([a, out[a]]).toEqual([a, 'ENOENT']);
    for (const v of visible) expect([v, out[v]]).toEqual([v, expect.stringMatching(/^(file|dir):[1-9]/)]);
    const keys = (existsSync('/etc/ssh') ? (await import('node:fs')).readdirSync('/etc/ssh') : []).filter((f) =>
      /^ssh_host_.*_key$/.test(f),
    );
    if (keys.length) {
      const k = await run({
        projectRoot: root,
        skill: 'locked',
        script: 'read.js',
        args: keys.map((f) => `/etc/ssh/${f}`),
      });
      expect(Object.values(parse(k.stdout)).every((v) => v === 'EACCES')).toBe(true);
    }
    // Unconfined, the same script sees the other home's file.
    const u = await run(
      { projectRoot: root, skill: 'locked', script: 'read.js', args: [join(other, 'secret.txt')], unconfined: true },
      unconfinedHost(),
    );
    expect(parse(u.stdout)[join(other, 'secret.txt')]).toBe('file:1');
  });
});

describe.skipIf(!ok)('issue 15 — what runs is exactly what was pinned', () => {
  it('(15.5) a nested .git, a special file, a changed executable bit are refused; the pinned folder runs', async () => {
    const root = project({ locked });
    const dir = join(root, '.kitbash', 'skills', 'locked');
    // control: the folder as pinned runs.
    const good = await run({ projectRoot: root, skill: 'locked', script: 'read.js', args: ['/usr'] });
    expect(good.result.outcome).toBe('exited');

    mkdirSync(join(dir, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(dir, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\necho pwned\n');
    const git = await run({ projectRoot: root, skill: 'locked', script: 'read.js', args: [] });
    expect(git.result.outcome).toBe('refused');
    expect(git.result.refusal?.message).toMatch(/\.git\/ is not covered by the integrity/);
    (await import('node:fs')).rmSync(join(dir, '.git'), { recursive: true });

    const { spawnSync } = await import('node:child_process');
    spawnSync('mkfifo', [join(dir, 'pipe')]);
    const fifo = await run({ projectRoot: root, skill: 'locked', script: 'read.js', args: [] });
    expect(fifo.result.refusal?.message).toMatch(/pipe \(a special file\)/);
    (await import('node:fs')).rmSync(join(dir, 'pipe'));

    chmodSync(join(dir, 'SKILL.md'), 0o755);
    const mode = await run({ projectRoot: root, skill: 'locked', script: 'read.js', args: [] });
    expect(mode.result.refusal?.message).toMatch(/SKILL\.md became executable/);
    chmodSync(join(dir, 'SKILL.md'), 0o644);
    chmodSync(join(dir, 'scripts', 'read.js'), 0o644);
    const lost = await run({ projectRoot: root, skill: 'locked', script: 'read.js', args: [] });
    expect(lost.result.refusal?.message).toMatch(/scripts\/read\.js is no longer executable/);
    chmodSync(join(dir, 'scripts', 'read.js'), 0o755);

    writeFileSync(join(dir, 'scripts', 'new.sh'), '#!/bin/sh\n');
    const added = await run({ projectRoot: root, skill: 'locked', script: 'read.js', args: [] });
    expect(added.result.refusal?.reason).toBe('integrity');
  });
});

const FORK = `${NODE_SHEBANG}
const { spawn } = require('child_process');
let started = 0, failed = 0;
const kids = [];
for (let i = 0; i < Number(process.argv[2]); i++) {
  const c = spawn('/bin/sleep', ['30']);
  c.on('spawn', () => started++);
  c.on('error', () => failed++);
  kids.push(c);
}
setTimeout(() => { kids.forEach((k) => k.kill('SIGKILL')); console.log(JSON.stringify({ started, failed })); }, 3000);
`;
const FILES = `${NODE_SHEBANG}
const fs = require('fs');
let opened = 0, error = null;
try { for (let i = 0; i < Number(process.argv[2]); i++) { fs.openSync('/dev/null', 'r'); opened++; } } catch (e) { error = e.code; }
console.log(JSON.stringify({ opened, error }));
`;
const SPIN = `${NODE_SHEBANG}
let x = 0;
const until = Number(process.argv[2]);
for (let i = 0; i < until; i++) x = (x + i) % 7919;
console.log('done ' + x);
`;
const ALLOC = `${NODE_SHEBANG}
const kept = [];
try { for (let i = 0; i < Number(process.argv[2]); i++) kept.push(Buffer.alloc(16 << 20, 1)); console.log('allocated ' + kept.length * 16 + ' MiB'); }
catch (e) { console.log('refused: ' + e.constructor.name); }
`;
const FILL = `${NODE_SHEBANG}
const fs = require('fs'), path = require('path');
const chunk = Buffer.alloc(1 << 20, 1);
const file = path.join(process.env.TMPDIR, 'fill.bin');
let mib = 0;
try { for (; mib < Number(process.argv[2]); mib++) fs.appendFileSync(file, chunk); console.log('wrote ' + mib + ' MiB'); } catch (e) { console.log('stopped at ' + mib + ' MiB: ' + e.code); }
`;

describe.skipIf(!ok)('issue 15 — limits', () => {
  const limited = {
    scripts: { 'fork.js': FORK, 'files.js': FILES, 'spin.js': SPIN, 'alloc.js': ALLOC, 'fill.js': FILL },
  };
  const label = async (id: string): Promise<string | undefined> => {
    const root = project({ limited });
    const r = await run({ projectRoot: root, skill: 'limited', script: 'files.js', args: ['1'] });
    const s = r.events.find((e) => e.type === 'started');
    return s?.type === 'started' ? s.plan.rows.find((x) => x.id === id)?.label : undefined;
  };

  it('(15.4) the process cap stops a fork flood (and says so); under the default cap the same spawns all start', async () => {
    const how = await label('limit-processes');
    const held = how !== 'advisory — not enforced here';
    if (!requireOrSkip('a process cap here (a pids cgroup, or RLIMIT_NPROC for a non-root user)', held)) return;
    const root = project({ limited });
    const capped = await run({
      projectRoot: root,
      skill: 'limited',
      script: 'fork.js',
      args: ['60'],
      limits: { processes: 32 },
    });
    const c = parse(capped.stdout) as unknown as { started: number; failed: number };
    expect(c.failed).toBeGreaterThan(0);
    expect(c.started).toBeLessThan(60);
    // A cgroup counts the refusals and the run says so; RLIMIT_NPROC leaves no counter.
    if (how === 'enforced (cgroup)')
      expect(capped.result.message).toBe('the run hit its process limit (32; --max-processes)');
    // control: the same 60 spawns under the default cap all start.
    const free = await run({ projectRoot: root, skill: 'limited', script: 'fork.js', args: ['60'] });
    expect(parse(free.stdout)).toEqual({ started: 60, failed: 0 });
  });

  it('(15.4) open files, CPU time, memory and scratch are capped; under the defaults the same work completes', async () => {
    const root = project({ limited });
    const files = await run({
      projectRoot: root,
      skill: 'limited',
      script: 'files.js',
      args: ['500'],
      limits: { openFiles: 64 },
    });
    expect(parse(files.stdout)).toMatchObject({ error: 'EMFILE' });
    const spin = await run({
      projectRoot: root,
      skill: 'limited',
      script: 'spin.js',
      args: ['1e12'],
      limits: { cpuSeconds: 1 },
      timeoutMs: 600_000,
    });
    expect(spin.result.exitCode).toBe(152);
    expect(spin.result.message).toBe('the run hit its CPU-time limit (1 s per process; --max-cpu)');
    const mem = await run({
      projectRoot: root,
      skill: 'limited',
      script: 'alloc.js',
      args: ['16'],
      limits: { memoryBytes: 96 * 1024 * 1024 },
    });
    expect(mem.stdout + (mem.result.message ?? '')).toMatch(/refused: RangeError|memory limit/);
    expect(mem.stdout).not.toMatch(/allocated 256 MiB/);
    const fill = await run({
      projectRoot: root,
      skill: 'limited',
      script: 'fill.js',
      args: ['32'],
      limits: { scratchBytes: 8 * 1024 * 1024 },
    });
    expect(fill.stdout).toMatch(/^stopped at [0-8] MiB: ENOSPC/);
    // control: the same work under the default limits completes.
    expect(
      parse((await run({ projectRoot: root, skill: 'limited', script: 'files.js', args: ['500'] })).stdout),
    ).toEqual({ opened: 500, error: null });
    expect(
      (await run({ projectRoot: root, skill: 'limited', script: 'spin.js', args: ['1e6'], limits: { cpuSeconds: 1 } }))
        .stdout,
    ).toMatch(/^done /);
    expect((await run({ projectRoot: root, skill: 'limited', script: 'alloc.js', args: ['16'] })).stdout).toBe(
      'allocated 256 MiB\n',
    );
    expect((await run({ projectRoot: root, skill: 'limited', script: 'fill.js', args: ['32'] })).stdout).toBe(
      'wrote 32 MiB\n',
    );
  });
});
