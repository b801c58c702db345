/**
 * A test host in a network namespace this test creates (`ip netns add` + a veth pair):
 * the outside world a sandboxed script with `network = true` may reach, without ever
 * touching a real outside address. Needs root (CI runs the suite as root).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { DNS_ANSWER, DNS_RESPONDER, GREETING } from './servers';

export interface TestHost {
  /** The test host's address (inside its namespace). */
  readonly addr: string;
  /** Its IPv6 address (a unique-local one on the same veth). */
  readonly addr6: string;
  /** This machine's own address on the veth (a host address a sandbox must not reach). */
  readonly hostAddr: string;
  /** This machine's own IPv6 address on the veth. */
  readonly hostAddr6: string;
  /** The TCP port the test host greets on, at addr and addr6; it also answers DNS on addr:53. */
  readonly port: number;
  close(): void;
}

/** `ip …`, throwing with its stderr when it fails. */
export const ip = (...args: string[]): void => {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`ip ${args.join(' ')}: ${r.stderr || r.error?.message || `exit ${String(r.status)}`}`);
};

/** Whether this machine lets the test make a namespace (root with iproute2). */
export function canMakeNetns(): boolean {
  if (process.getuid?.() !== 0) return false;
  return spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).status === 0;
}

/**
 * The first 10.231.<n>.0/24 from `start` that no interface here uses yet: test hosts of other
 * test processes (their pids can agree modulo 200) would otherwise share a subnet, and a
 * connect would reach whichever veth the kernel routes it to.
 */
function freeSubnet(start: number): number {
  const used = spawnSync('ip', ['-4', '-o', 'addr', 'show'], { encoding: 'utf8' }).stdout ?? '';
  for (let i = 0; i < 230; i++) {
    const n = ((start - 20 + i) % 230) + 20;
    if (!used.includes(` 10.231.${n}.`)) return n;
  }
  return start;
}

export async function startTestHost(): Promise<TestHost> {
  const n = freeSubnet((process.pid % 200) + 20);
  const ns = `sst-${process.pid}`;
  const hostIf = `sth${process.pid % 100000}`;
  const nsIf = `stn${process.pid % 100000}`;
  const [hostAddr, addr] = [`10.231.${n}.1`, `10.231.${n}.2`];
  const [hostAddr6, addr6] = [`fd31:${n}::1`, `fd31:${n}::2`];
  ip('netns', 'add', ns);
  let server: ChildProcess | undefined;
  const close = (): void => {
    server?.kill('SIGKILL');
    spawnSync('ip', ['link', 'del', hostIf]);
    spawnSync('ip', ['netns', 'del', ns]);
  };
  try {
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
    ip('link', 'set', nsIf, 'netns', ns);
    ip('addr', 'add', `${hostAddr}/24`, 'dev', hostIf);
    // nodad: usable at once, not after duplicate address detection's second or two.
    ip('addr', 'add', `${hostAddr6}/64`, 'dev', hostIf, 'nodad');
    ip('link', 'set', hostIf, 'up');
    ip('-n', ns, 'addr', 'add', `${addr}/24`, 'dev', nsIf);
    ip('-n', ns, 'addr', 'add', `${addr6}/64`, 'dev', nsIf, 'nodad');
    ip('-n', ns, 'link', 'set', nsIf, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    const port = 8080;
    const code = [
      `const greet = (s) => s.end(${JSON.stringify(GREETING)});`,
      `const net = require('net');`,
      `const up = (srv, a) => new Promise((r) => srv.listen(${port}, a, r));`,
      `Promise.all([up(net.createServer(greet), ${JSON.stringify(addr)}), up(net.createServer(greet), ${JSON.stringify(addr6)}),`,
      ` require(${JSON.stringify(DNS_RESPONDER)}).serve(${JSON.stringify(addr)}, 53, ${JSON.stringify(DNS_ANSWER)})])`,
      ` .then(() => console.log('listening'));`,
    ].join('\n');
    server = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      server!.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
      server!.on('exit', (c) => reject(new Error(`the test host's server exited (${String(c)})`)));
    });
    return { addr, addr6, hostAddr, hostAddr6, port, close };
  } catch (e) {
    close();
    throw e;
  }
}
