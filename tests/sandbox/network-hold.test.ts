/**
 * `network = true` reaches the outside world and nothing of this machine (issue 38, item 5):
 * not its IPv6 link-local address (a scoped `fe80::…%eth0` connect goes on-link past any
 * route, and pasta carried it to the host), not any of its own addresses of either family,
 * and not a resolver on its loopback through DNS. The outside world is a test host in a
 * namespace this test creates; no packet goes to a real outside address. Each blocked
 * connect has a control: the same connect from the host reaches the listener.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../cli/helpers';
import { configDirForTests, requireOrSkip, skillsmithBin } from '../support/paths';
import { bwrapWorks, cleanup, CONNECT, NODE_SHEBANG, project, run, tempDir, unconfinedHost } from './helpers';
import { canMakeNetns, startTestHost, type TestHost } from './netns-host';
import { DNS_ANSWER, dnsServer, GREETING } from './servers';

const ok = await bwrapWorks();
const netnsOk = ok && requireOrSkip('root with iproute2 (ip netns) for the network test host', canMakeNetns());
afterAll(cleanup);

/** The interface pasta links the run through (the one with the IPv6 default route) and its link-local address. */
function hostLinkLocal(): { dev: string; address: string } | undefined {
  const r = spawnSync('ip', ['-6', 'route', 'show', 'default'], { encoding: 'utf8' });
  const dev = /\bdev (\S+)/.exec(r.stdout ?? '')?.[1];
  const a = dev
    ? networkInterfaces()[dev]?.find((x) => x.family === 'IPv6' && x.address.startsWith('fe80:'))
    : undefined;
  return dev && a ? { dev, address: a.address } : undefined;
}
const linkLocal = netnsOk ? hostLinkLocal() : undefined;
const llOk = netnsOk && requireOrSkip('an IPv6 default route with a link-local address', linkLocal !== undefined);

const DNS = `${NODE_SHEBANG}
console.log(require('fs').readFileSync('/etc/resolv.conf', 'utf8').trim().replace(/\\n/g, ' | '));
require('dns').lookup('skill.example.test', { family: 4 }, (e, a) => console.log(e ? 'failed ' + e.code : 'resolved: ' + a));
`;
const netonly = { scripts: { 'connect.js': CONNECT, 'dns.js': DNS }, toml: '[permissions]\nnetwork = true\n' };

/** A greeting server on every address of this host (`::` is dual-stack), counting connections. */
async function everywhere(): Promise<{ server: Server; port: number; count: () => number }> {
  let n = 0;
  const server = createServer((c) => {
    n++;
    c.end(GREETING);
  });
  await new Promise<void>((r) => server.listen(0, '::', r));
  return { server, port: (server.address() as { port: number }).port, count: () => n };
}

describe.skipIf(!netnsOk)('issue 38 — network = true reaches nothing of this machine, over IPv6 either', () => {
  let host: TestHost;
  let root = '';
  beforeAll(async () => {
    host = await startTestHost();
    root = project({ netonly });
  });
  afterAll(() => host?.close());

  it('the test host is reached over IPv4 and IPv6: the link out works for both families', async () => {
    for (const addr of [host.addr, host.addr6]) {
      const r = await run({
        projectRoot: root,
        skill: 'netonly',
        script: 'connect.js',
        args: [addr, String(host.port)],
      });
      expect([addr, r.stdout]).toEqual([addr, `connected: ${GREETING}\n`]);
    }
  });

  it.skipIf(!llOk)("the host's IPv6 link-local address is not reached; from the host itself it is", async () => {
    const srv = await everywhere();
    const target = `${linkLocal!.address}%${linkLocal!.dev}`;
    try {
      const r = await run({
        projectRoot: root,
        skill: 'netonly',
        script: 'connect.js',
        args: [target, String(srv.port)],
      });
      expect(r.stdout).toMatch(/^blocked: /);
      expect(srv.count()).toBe(0);
      // control: the same connect without the sandbox reaches the listener at that address.
      const u = await run(
        {
          projectRoot: root,
          skill: 'netonly',
          script: 'connect.js',
          args: [target, String(srv.port)],
          unconfined: true,
        },
        unconfinedHost(),
      );
      expect(u.stdout).toBe(`connected: ${GREETING}\n`);
      expect(srv.count()).toBe(1);
    } finally {
      await new Promise((r) => srv.server.close(r));
    }
  });

  it("none of the host's own non-loopback addresses, IPv4 or IPv6, is reached; from the host each is", async () => {
    const own = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .filter((a) => !a.internal && !a.address.startsWith('fe80:'))
      .map((a) => a.address);
    expect(own).toEqual(expect.arrayContaining([host.hostAddr, host.hostAddr6]));
    const srv = await everywhere();
    try {
      for (const addr of own) {
        const r = await run({
          projectRoot: root,
          skill: 'netonly',
          script: 'connect.js',
          args: [addr, String(srv.port)],
        });
        expect([addr, r.stdout]).toEqual([addr, expect.stringMatching(/^blocked: /)]);
      }
      expect(srv.count()).toBe(0);
      const u = await run(
        {
          projectRoot: root,
          skill: 'netonly',
          script: 'connect.js',
          args: [host.hostAddr6, String(srv.port)],
          unconfined: true,
        },
        unconfinedHost(),
      );
      expect(u.stdout).toBe(`connected: ${GREETING}\n`);
    } finally {
      await new Promise((r) => srv.server.close(r));
    }
  });
});

/** `skillsmith run …` in a private mount namespace whose /etc/resolv.conf is `resolv` (async: servers answer). */
function runWithResolvConf(
  resolv: string,
  cwd: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    'unshare',
    [
      '-m',
      '--propagation',
      'private',
      'sh',
      '-c',
      'mount --bind "$0" /etc/resolv.conf && exec "$@"',
      resolv,
      process.execPath,
      skillsmithBin,
      ...args,
    ],
    { cwd, env: { ...process.env, SKILLSMITH_CONFIG_DIR: configDirForTests() } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe.skipIf(!netnsOk)("issue 38 — a run's DNS never goes to a resolver on this machine", () => {
  beforeAll(requireBuiltCli);

  it('resolvers on the loopback or at a host address are left out; the outside one answers', async () => {
    const host = await startTestHost();
    const servers: Array<Awaited<ReturnType<typeof dnsServer>>> = [];
    try {
      const loop = await dnsServer('127.0.0.77', 53);
      servers.push(loop);
      const own = await dnsServer(host.hostAddr, 53);
      servers.push(own);
      const root = project({ netonly });
      const resolv = join(tempDir('skillsmith-resolv-'), 'resolv.conf');
      writeFileSync(
        resolv,
        `nameserver 127.0.0.77\nnameserver ::1\nnameserver ${host.hostAddr}\nnameserver fe80::1%eth0\nnameserver ${host.addr}\n`,
      );
      const r = await runWithResolvConf(resolv, root, ['run', 'netonly', 'dns.js']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`nameserver ${host.addr}\nresolved: ${DNS_ANSWER}\n`);
      expect([loop.queries(), own.queries()]).toEqual([0, 0]);
      // control: both servers answer a query from the host, so a query from the run would have counted.
      for (const [srv, addr] of [
        [loop, '127.0.0.77'],
        [own, host.hostAddr],
      ] as const) {
        const sock = createSocket('udp4');
        const answered = new Promise((r) => sock.once('message', r));
        sock.send(Buffer.from([0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 120, 0, 0, 1, 0, 1]), 53, addr);
        await answered;
        sock.close();
        expect(srv.queries()).toBe(1);
      }
    } finally {
      host.close();
      for (const srv of servers) await srv.close();
    }
  });
});
