/**
 * A test host in a network namespace this test creates (`ip netns add` + a veth pair):
 * the outside world a sandboxed script with `network = true` may reach, without ever
 * touching a real outside address. Needs root (CI runs the suite as root).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { GREETING } from './servers';

export interface TestHost {
  /** The test host's address (inside its namespace). */
  readonly addr: string;
  /** This machine's own address on the veth (a host address a sandbox must not reach). */
  readonly hostAddr: string;
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

export async function startTestHost(): Promise<TestHost> {
  const n = (process.pid % 200) + 20;
  const ns = `sst-${process.pid}`;
  const hostIf = `sth${process.pid % 100000}`;
  const nsIf = `stn${process.pid % 100000}`;
  const [hostAddr, addr] = [`10.231.${n}.1`, `10.231.${n}.2`];
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
    ip('link', 'set', hostIf, 'up');
    ip('-n', ns, 'addr', 'add', `${addr}/24`, 'dev', nsIf);
    ip('-n', ns, 'link', 'set', nsIf, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    const port = 8080;
    const code = `require('net').createServer((s) => s.end(${JSON.stringify(GREETING)})).listen(${port}, ${JSON.stringify(addr)}, () => console.log('listening'));`;
    server = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      server!.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
      server!.on('exit', (c) => reject(new Error(`the test host's server exited (${String(c)})`)));
    });
    return { addr, hostAddr, port, close };
  } catch (e) {
    close();
    throw e;
  }
}
