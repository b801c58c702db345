/**
 * The escape tests (issue 6, deliverable 7): each script tries one way out of the
 * sandbox; each is blocked, killed or truncated and reported — and the same script
 * succeeds where the manifest (or the run) allows it. Needs a working bubblewrap.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAudit } from '../../main/services/runs/audit';
import { bwrapWorks, cleanup, fakeBwrap, NODE_SHEBANG, project, run, tempDir, unconfinedHost } from './helpers';
import { dnsServer, DNS_ANSWER, GREETING, tcpServer } from './servers';

const ok = await bwrapWorks();
afterAll(cleanup);

const NET = `${NODE_SHEBANG}
const s = require('net').connect(Number(process.env.PROBE_PORT), '127.0.0.1');
let data = '';
s.on('data', (d) => (data += d));
s.on('end', () => { console.log('connected: ' + data); process.exit(0); });
s.on('error', (e) => { console.log('blocked: ' + e.code); process.exit(3); });
setTimeout(() => { console.log('blocked: no answer'); process.exit(3); }, 4000);
`;

const UNIX = `${NODE_SHEBANG}
const s = require('net').connect(process.argv[2]);
let data = '';
s.on('data', (d) => (data += d));
s.on('end', () => { console.log('connected: ' + data); process.exit(0); });
s.on('error', (e) => { console.log('blocked: ' + e.code); process.exit(3); });
`;

const DNS = `${NODE_SHEBANG}
const dns = require('dns');
const r = new dns.Resolver({ timeout: 1500, tries: 1 });
r.setServers(['127.0.0.1:' + process.env.PROBE_PORT]);
r.resolve4('skill.example.test', (err, addrs) => {
  if (err) { console.log('blocked: ' + err.code); process.exitCode = 3; }
  else console.log('resolved: ' + addrs.join(','));
  // Only where the run has no network: with it, this would ask the machine's real resolver.
  if (process.env.SYSTEM_LOOKUP) dns.lookup('example.com', (e2, a) => console.log('system resolver: ' + (e2 ? 'failed ' + e2.code : a)));
});
`;

const WRITES = `${NODE_SHEBANG}
const fs = require('fs'), path = require('path');
const targets = {
  workspace: path.join(process.cwd(), 'src', 'written-by-skill.txt'),
  newTopLevel: path.join(process.cwd(), 'new-top-level.txt'),
  ownFolder: path.join(process.env.KITBASH_SKILL_DIR, 'tampered.txt'),
  otherSkill: path.join(process.cwd(), '.kitbash', 'skills', 'other', 'SKILL.md'),
  lock: path.join(process.cwd(), 'kitbash.lock'),
  policy: path.join(process.cwd(), 'kitbash.toml'),
  gitHook: path.join(process.cwd(), '.git', 'hooks', 'pre-commit'),
  agentSettings: path.join(process.cwd(), '.claude', 'settings.json'),
  outside: path.join(process.argv[2], 'escaped.txt'),
  scratch: path.join(process.env.TMPDIR, 'scratch.txt'),
};
const out = {};
for (const [k, p] of Object.entries(targets)) {
  try { fs.appendFileSync(p, 'x'); out[k] = 'written'; } catch (e) { out[k] = e.code; }
}
console.log(JSON.stringify(out));
`;

const SSH = `${NODE_SHEBANG}
const fs = require('fs'), path = require('path');
const read = (p) => { try { return fs.readFileSync(p, 'utf8').trim(); } catch (e) { return 'blocked: ' + e.code; } };
console.log(JSON.stringify({
  planted: read(path.join(process.argv[2], '.ssh', 'id_ed25519')),
  viaHome: read(path.join(process.env.HOME, '.ssh', 'id_ed25519')),
  home: process.env.HOME,
  homeEntries: fs.readdirSync(process.env.HOME),
}));
`;

const ENV = `${NODE_SHEBANG}
const fs = require('fs');
const seen = [];
for (const pid of fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {
  try { if (fs.readFileSync('/proc/' + pid + '/environ', 'latin1').includes('SECRET_TOKEN=')) seen.push(pid); } catch {}
}
console.log(JSON.stringify({ env: process.env.SECRET_TOKEN ?? null, inProc: seen.length }));
`;

const SLEEP = `${NODE_SHEBANG}
setTimeout(() => console.log('woke up'), Number(process.argv[2]));
`;

const OUTLIVE = `${NODE_SHEBANG}
const { spawn } = require('child_process');
const child = spawn('/bin/sh', ['-c', 'sleep 1.5; echo late > "$0"', process.argv[2]], { detached: true, stdio: 'ignore' });
if (process.argv[3] === '--wait') child.on('exit', () => console.log('child finished'));
else { child.unref(); console.log('left a child behind'); }
`;

const FLOOD = `${NODE_SHEBANG}
const total = Number(process.argv[2]);
const chunk = Buffer.alloc(65536, 'y');
let sent = 0;
(function go() {
  while (sent < total) {
    const n = Math.min(chunk.length, total - sent);
    sent += n;
    if (!process.stdout.write(chunk.subarray(0, n))) return process.stdout.once('drain', go);
  }
})();
`;

const scripts = {
  'net.js': NET,
  'unix.js': UNIX,
  'dns.js': DNS,
  'writes.js': WRITES,
  'ssh.js': SSH,
  'env.js': ENV,
  'sleep.js': SLEEP,
  'outlive.js': OUTLIVE,
  'flood.js': FLOOD,
};
const locked = { scripts };
const open = { scripts, toml: '[permissions]\nnetwork = true\nwrite = true\n' };

describe.skipIf(!ok)('escape tests under bubblewrap', () => {
  const root = project({ locked, open, other: {} });
  writeFileSync(join(root, 'kitbash.toml'), '[project]\n');
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  mkdirSync(join(root, '.claude'), { recursive: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, '.claude', 'settings.json'), '{}\n');

  it('(1) a TCP server on the host loopback is unreachable without network, and with it (network means the outside world)', async () => {
    const srv = await tcpServer();
    try {
      const blocked = await run({
        projectRoot: root,
        skill: 'locked',
        script: 'net.js',
        env: { PROBE_PORT: String(srv.port) },
      });
      expect(blocked.result.exitCode).toBe(3);
      expect(blocked.stdout).toMatch(/^blocked: ECONNREFUSED/m);
      expect(srv.connections()).toBe(0);
      const started = blocked.events.find((e) => e.type === 'started');
      expect(started?.type === 'started' && started.plan.rows.find((r) => r.id === 'network')?.label).toBe(
        'enforced (bubblewrap)',
      );

      // The granted direction (a test host in another namespace) is in escape-hold.test.ts.
      const allowed = await run({
        projectRoot: root,
        skill: 'open',
        script: 'net.js',
        env: { PROBE_PORT: String(srv.port) },
      });
      // A rare CI run saw empty stdout here; the message carries what the run reported.
      const said = JSON.stringify({ result: allowed.result, stderr: allowed.stderr });
      expect(allowed.stdout, said).toMatch(/^blocked: ECONNREFUSED/m);
      expect(allowed.result.exitCode, said).toBe(3);
      expect(srv.connections()).toBe(0);
      // control: without the sandbox the same script reaches the host's loopback.
      const bare = await run(
        { projectRoot: root, skill: 'open', script: 'net.js', env: { PROBE_PORT: String(srv.port) }, unconfined: true },
        unconfinedHost(),
      );
      expect(bare.stdout).toContain(`connected: ${GREETING}`);
      expect(srv.connections()).toBe(1);
    } finally {
      await srv.close();
    }
  });

  it('(1b) a Unix socket a host daemon listens on cannot be reached, with or without network', async () => {
    const dir = tempDir('skillsmith-sock-', '/var/tmp');
    const sock = join(dir, 'daemon.sock');
    const srv = createServer((c) => c.end(GREETING));
    await new Promise<void>((r) => srv.listen(sock, r));
    try {
      const blocked = await run({ projectRoot: root, skill: 'locked', script: 'unix.js', args: [sock] });
      expect(blocked.stdout).toBe('blocked: EAFNOSUPPORT\n');
      expect(blocked.result.exitCode).toBe(3);
      const withNet = await run({ projectRoot: root, skill: 'open', script: 'unix.js', args: [sock] });
      // Networked runs once gave empty stdout on a loaded machine; say what the run reported.
      expect(withNet.stdout, JSON.stringify({ result: withNet.result, stderr: withNet.stderr })).toBe(
        'blocked: EAFNOSUPPORT\n',
      );
      const bare = await run(
        { projectRoot: root, skill: 'open', script: 'unix.js', args: [sock], unconfined: true },
        unconfinedHost(),
      );
      expect(bare.stdout).toBe(`connected: ${GREETING}\n`);
    } finally {
      await new Promise((r) => srv.close(r));
    }
  });

  it("(2) a hostname does not resolve without network; with it, a resolver on the host's loopback is not reached either", async () => {
    const srv = await dnsServer();
    try {
      const blocked = await run({
        projectRoot: root,
        skill: 'locked',
        script: 'dns.js',
        env: { PROBE_PORT: String(srv.port), SYSTEM_LOOKUP: '1' },
      });
      expect(blocked.result.exitCode).toBe(3);
      expect(blocked.stdout).toMatch(/^blocked: E[A-Z]+/m);
      expect(blocked.stdout).toMatch(/^system resolver: failed /m);
      expect(srv.queries()).toBe(0);

      const allowed = await run({
        projectRoot: root,
        skill: 'open',
        script: 'dns.js',
        env: { PROBE_PORT: String(srv.port) },
      });
      expect(allowed.stdout).toMatch(/^blocked: E[A-Z]+/m);
      expect(srv.queries()).toBe(0);
      const bare = await run(
        { projectRoot: root, skill: 'open', script: 'dns.js', env: { PROBE_PORT: String(srv.port) }, unconfined: true },
        unconfinedHost(),
      );
      expect(bare.stdout).toContain(`resolved: ${DNS_ANSWER}`);
    } finally {
      await srv.close();
    }
  });

  it('(3) writes: only scratch without write permission; the workspace too with it; never the skill, other skills, the lock or outside', async () => {
    const outside = tempDir('skillsmith-outside-', '/var/tmp');
    const lockBefore = readFileSync(join(root, 'kitbash.lock'), 'utf8');
    const blocked = await run({ projectRoot: root, skill: 'locked', script: 'writes.js', args: [outside] });
    // `outside` is not even there: only the system folders and the project are.
    const denied = {
      ownFolder: 'EROFS',
      otherSkill: 'EROFS',
      lock: 'EROFS',
      policy: 'EROFS',
      gitHook: 'EROFS',
      agentSettings: 'EROFS',
      outside: 'ENOENT',
      newTopLevel: 'EROFS',
    };
    expect(JSON.parse(blocked.stdout)).toEqual({ ...denied, workspace: 'EROFS', scratch: 'written' });

    // control: the same script with write = true writes the project.
    const allowed = await run({ projectRoot: root, skill: 'open', script: 'writes.js', args: [outside] });
    // write = true: the project, new top-level files included (D183), but never what runs
    // later outside the sandbox or governs it: those are the real entries, read-only.
    expect(JSON.parse(allowed.stdout)).toEqual({
      ...denied,
      newTopLevel: 'written',
      workspace: 'written',
      scratch: 'written',
    });
    expect(readFileSync(join(root, 'src', 'written-by-skill.txt'), 'utf8')).toBe('x');
    expect(readFileSync(join(root, 'new-top-level.txt'), 'utf8')).toBe('x');
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    expect(existsSync(join(root, '.kitbash', 'skills', 'open', 'tampered.txt'))).toBe(false);
    expect(readFileSync(join(root, 'kitbash.lock'), 'utf8')).toBe(lockBefore);
  });

  it('(4) a key planted in the real $HOME/.ssh is not readable; $HOME is empty and private', async () => {
    // A HOME outside /tmp (which the sandbox replaces anyway), with the project inside it,
    // as a developer's checkout usually is.
    const home = tempDir('skillsmith-home-', '/var/tmp');
    mkdirSync(join(home, '.ssh'), { mode: 0o700 });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PLANTED-PRIVATE-KEY\n', { mode: 0o600 });
    const proj = project({ locked: { scripts } }, home);
    const parentEnv = { PATH: process.env.PATH, HOME: home };

    const blocked = await run({ projectRoot: proj, skill: 'locked', script: 'ssh.js', args: [home] }, { parentEnv });
    const r = JSON.parse(blocked.stdout) as { planted: string; viaHome: string; home: string; homeEntries: string[] };
    expect(r.planted).toBe('blocked: ENOENT');
    expect(r.viaHome).toBe('blocked: ENOENT');
    expect(r.home).not.toBe(home);
    expect(r.homeEntries).toEqual([]);
    expect(blocked.result.exitCode).toBe(0);

    // control: the same script does read it when nothing confines it (the explicit override on a
    // machine without a working sandbox): the test is able to fail.
    const host = {
      platform: 'linux' as const,
      bwrapPath: fakeBwrap(tempDir('skillsmith-fake-')),
      sandboxExecPath: '/nonexistent',
    };
    const unconfined = await run(
      { projectRoot: proj, skill: 'locked', script: 'ssh.js', args: [home], unconfined: true },
      { parentEnv, host },
    );
    expect((JSON.parse(unconfined.stdout) as { planted: string }).planted).toBe('PLANTED-PRIVATE-KEY');
  });

  it('(5) a secret in the parent environment does not reach the script, unless the run passes it', async () => {
    const parentEnv = { PATH: process.env.PATH, SECRET_TOKEN: 's3cr3t-value' };
    const blocked = await run({ projectRoot: root, skill: 'locked', script: 'env.js' }, { parentEnv });
    expect(JSON.parse(blocked.stdout)).toEqual({ env: null, inProc: 0 });

    // control: passed explicitly, the script does see it.
    const passed = await run(
      { projectRoot: root, skill: 'locked', script: 'env.js', env: { SECRET_TOKEN: 's3cr3t-value' } },
      { parentEnv },
    );
    expect((JSON.parse(passed.stdout) as { env: string }).env).toBe('s3cr3t-value');
  });

  it('(6) a script running past the timeout is killed and reported; one inside it finishes', async () => {
    const t0 = Date.now();
    const killed = await run({
      projectRoot: root,
      skill: 'locked',
      script: 'sleep.js',
      args: ['30000'],
      timeoutMs: 1500,
    });
    expect(killed.result.outcome).toBe('timeout');
    expect(killed.result.exitCode).toBeNull();
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(killed.stdout).toBe('');
    expect(readAudit(root).at(-1)).toMatchObject({ skill: 'locked', outcome: 'timeout', exitCode: null });

    // control: a script inside the timeout finishes.
    const fine = await run({
      projectRoot: root,
      skill: 'locked',
      script: 'sleep.js',
      args: ['200'],
      timeoutMs: 10_000,
    });
    expect(fine.result.outcome).toBe('exited');
    expect(fine.stdout).toBe('woke up\n');
  });

  it('(7) a process left running when the script exits is killed and reported; one the script waits for finishes', async () => {
    const marker = join(root, 'src', 'late-marker.txt');
    const left = await run({ projectRoot: root, skill: 'open', script: 'outlive.js', args: [marker] });
    expect(left.result.exitCode).toBe(0);
    expect(left.result.strays).toBeGreaterThanOrEqual(1);
    expect(readAudit(root).at(-1)?.strays).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 2500));
    expect(existsSync(marker)).toBe(false);

    // control: a child the script waits for finishes and writes its marker.
    const waited = await run({ projectRoot: root, skill: 'open', script: 'outlive.js', args: [marker, '--wait'] });
    expect(waited.stdout).toBe('child finished\n');
    expect(waited.result.strays).toBe(0);
    expect(readFileSync(marker, 'utf8')).toBe('late\n');
  });

  it('(8) a stdout flood is truncated at the cap and reported; output under the cap arrives whole', async () => {
    const total = 5 * 1024 * 1024;
    const cap = 64 * 1024;
    const flood = await run({
      projectRoot: root,
      skill: 'locked',
      script: 'flood.js',
      args: [String(total)],
      maxOutputBytes: cap,
    });
    expect(flood.stdout.length).toBe(cap);
    expect(flood.events.filter((e) => e.type === 'truncated')).toEqual([
      { type: 'truncated', stream: 'stdout', limitBytes: cap },
    ]);
    expect(flood.result.dropped.stdout).toBe(total - cap);
    expect(flood.result.exitCode).toBe(0);
    expect(readAudit(root).at(-1)?.truncated).toEqual({ stdout: total - cap, stderr: 0 });

    // control: under the cap the output arrives whole.
    const whole = await run({
      projectRoot: root,
      skill: 'locked',
      script: 'flood.js',
      args: [String(total)],
      maxOutputBytes: 8 * 1024 * 1024,
    });
    expect(whole.stdout.length).toBe(total);
    expect(whole.events.some((e) => e.type === 'truncated')).toBe(false);
  });

  it('no capabilities inside: a remount of / as writable is refused', async () => {
    const proj = project({
      remount: {
        scripts: {
          'remount.sh':
            "#!/bin/sh\nmount -o remount,rw,bind / 2>/dev/null && echo REMOUNTED || echo refused\ngrep '^CapEff' /proc/self/status\ngrep '^NoNewPrivs' /proc/self/status\n",
        },
      },
    });
    const r = await run({ projectRoot: proj, skill: 'remount', script: 'remount.sh' });
    expect(r.stdout).toMatch(/^refused$/m);
    expect(r.stdout).toMatch(/^CapEff:\s+0+$/m);
    expect(r.stdout).toMatch(/^NoNewPrivs:\s+1$/m);
    // control: as root (CI), the same capability read outside the sandbox shows capabilities.
    if (process.getuid?.() === 0) {
      const caps = project({ caps: { scripts: { 'caps.sh': "#!/bin/sh\ngrep '^CapEff' /proc/self/status\n" } } });
      const bare = await run(
        { projectRoot: caps, skill: 'caps', script: 'caps.sh', unconfined: true },
        unconfinedHost(),
      );
      expect(bare.stdout).not.toMatch(/^CapEff:\s+0+$/m);
    }
  });
});
