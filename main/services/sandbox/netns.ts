import { existsSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { isolationBatch, outsideResolvers, runResolvConf } from '../../../shared/sandbox/network';
import { capture, firstLines } from './process';

export const DEFAULT_PASTA = '/usr/bin/pasta';
const NSENTER = '/usr/bin/nsenter';
/**
 * Where the host's resolvers are named: the system file, then systemd-resolved's list of
 * its upstream servers (for when the system file names only its stub on 127.0.0.53).
 */
const RESOLV_FILES = ['/etc/resolv.conf', '/run/systemd/resolve/resolv.conf'];

export interface NetnsTools {
  readonly pasta: string;
  readonly nsenter: string;
  /** `ip` from iproute2, run inside the run's namespace to cut the routes to this host. */
  readonly ip: string;
}

export function netnsTools(env: Readonly<Record<string, string | undefined>> = process.env): NetnsTools {
  const ip = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((p) => existsSync(p)) ?? '/usr/sbin/ip';
  return { pasta: env.SKILLSMITH_PASTA || DEFAULT_PASTA, nsenter: NSENTER, ip };
}

/** Which tool is missing, if any (a run with network refuses then). */
export function missingTool(t: NetnsTools): string | undefined {
  for (const [name, path] of [
    ['pasta (Debian package passt)', t.pasta],
    ['nsenter (util-linux)', t.nsenter],
    ['ip (iproute2)', t.ip],
  ] as const) {
    if (!existsSync(path)) return `${name} is not installed (no ${path})`;
  }
  return undefined;
}

/**
 * The run's resolv.conf text: the first of the host's resolver lists that names a resolver
 * outside this machine. Never pasta's DNS forwarding: it sends the queries to the host's
 * first nameserver even when that is a loopback stub, a host service the run may not reach.
 */
export function runResolvConfText(read: (p: string) => string = (p) => readFileSync(p, 'utf8')): string {
  const own = hostAddresses();
  for (const file of RESOLV_FILES) {
    let text: string;
    try {
      text = read(file);
    } catch {
      continue;
    }
    const found = outsideResolvers(text, own);
    if (found.length) return runResolvConf(found);
  }
  return runResolvConf([]);
}

/** Every address of this host except loopback: the run gets an unreachable route to each. */
export function hostAddresses(): string[] {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? [])
      if (!a.internal && !a.address.startsWith('fe80:'))
        out.add(a.family === 'IPv6' ? `${a.address}/128` : `${a.address}/32`);
  }
  return [...out];
}

/**
 * Give the sandbox's (empty) network namespace an outbound link: pasta attaches to it and
 * forwards its connections through ordinary sockets of this user, with no forwarding of
 * the host's loopback (-T/-U none, --no-map-gw), none into the sandbox (-t/-u none) and
 * no DNS forwarding (the run's resolv.conf names outside resolvers: runResolvConfText);
 * then every address of this host gets an unreachable route inside the namespace and
 * link-local destinations a prohibit rule (isolationBatch), so host services bound to
 * them are out of reach too. pasta daemonizes once the link is up; its pid file lets the
 * caller stop it. Resolves to an error message, or undefined.
 */
export async function attachNetwork(pid: number, t: NetnsTools, workDir: string): Promise<string | undefined> {
  const ns = (kind: string): string => `/proc/${pid}/ns/${kind}`;
  const ownUserns = safeReadlink('/proc/self/ns/user');
  const joinUserns = ownUserns !== undefined && safeReadlink(ns('user')) !== ownUserns;
  const root = process.getuid?.() === 0;
  const pidFile = join(workDir, 'pasta.pid');
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin' };
  const pasta = await capture(
    t.pasta,
    [
      '--config-net',
      '--netns',
      ns('net'),
      ...(joinUserns ? ['--userns', ns('user')] : []),
      '--no-map-gw',
      '-T',
      'none',
      '-U',
      'none',
      '-t',
      'none',
      '-u',
      'none',
      '-q',
      '-P',
      pidFile,
      ...(root ? ['--runas', '0'] : []),
    ],
    { env, timeoutMs: 60_000 },
  );
  if (pasta.code !== 0)
    return `pasta could not attach the run's network namespace: ${firstLines(pasta.stderr.replace(/^Failed to send.*syslog\s*$/gm, '')) || `exit ${String(pasta.code)}`}`;
  // A kernel booted without IPv6 has no IPv6 rules to add, and nothing to reach over it.
  const cut = isolationBatch(hostAddresses(), existsSync('/proc/net/if_inet6'));
  for (const [family, lines] of [
    [[], cut.all],
    [['-6'], cut.inet6],
  ] as const) {
    if (!lines.length) continue;
    const batch = join(workDir, `isolate${family.join('')}.batch`);
    writeFileSync(batch, lines.join('\n') + '\n');
    const ip = await capture(
      t.nsenter,
      [
        '-t',
        String(pid),
        '-n',
        ...(joinUserns ? ['-U', '--preserve-credentials'] : []),
        t.ip,
        ...family,
        '-batch',
        batch,
      ],
      { env, timeoutMs: 60_000 },
    );
    if (ip.code !== 0)
      return `could not cut the routes to this host inside the run's network namespace: ${firstLines(ip.stderr) || `exit ${String(ip.code)}`}`;
  }
  return undefined;
}

/** Stop the pasta of one run (it also quits when the namespace goes). */
export function stopPasta(workDir: string, read: (p: string) => string): void {
  try {
    const pid = Number(read(join(workDir, 'pasta.pid')).trim());
    if (pid > 1) process.kill(pid, 'SIGTERM');
  } catch {
    // not started, or gone already
  }
}

function safeReadlink(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}
