/**
 * The real-agent suites' network: two namespaces this test creates and a veth between
 * them. The agent (or `skillsmith eval`, whose sandbox links out through pasta) runs in
 * the agent namespace; the scripted model API listens in the model host namespace. The
 * model host has no other link and forwards nothing, so whatever an agent tries beyond
 * the model API (telemetry, update checks, a real vendor address) dies there: no packet
 * leaves this machine. Needs root and iproute2 (CI runs the suite as root).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ip } from '../../sandbox/netns-host';

const MODEL_API = fileURLToPath(new URL('./model-api.mjs', import.meta.url));
let made = 0;

export interface TestNetwork {
  /** The agent namespace's name (`ip netns exec <name> …`). */
  readonly agentNs: string;
  /** The model host's namespace, where startModelApi listens. */
  readonly modelNs: string;
  /** The model host's address, as the agent reaches it. */
  readonly modelAddr: string;
  /** argv prefixed so it runs in the agent namespace. */
  inAgentNs(argv: readonly string[]): string[];
  close(): void;
}

export function startTestNetwork(): TestNetwork {
  const id = `${process.pid % 100000}x${made++}`;
  const n = (process.pid + made * 7) % 250;
  const agentNs = `ssa-${id}`;
  const modelNs = `ssm-${id}`;
  const [agentAddr, modelAddr] = [`10.233.${n}.1`, `10.233.${n}.2`];
  const close = (): void => {
    spawnSync('ip', ['netns', 'del', agentNs]);
    spawnSync('ip', ['netns', 'del', modelNs]);
  };
  try {
    ip('netns', 'add', agentNs);
    ip('netns', 'add', modelNs);
    ip('-n', agentNs, 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', modelNs);
    ip('-n', agentNs, 'addr', 'add', `${agentAddr}/30`, 'dev', 'eth0');
    ip('-n', modelNs, 'addr', 'add', `${modelAddr}/30`, 'dev', 'eth0');
    for (const ns of [agentNs, modelNs]) {
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      ip('-n', ns, 'link', 'set', 'eth0', 'up');
    }
    // pasta copies the agent namespace's default route into a sandbox; it leads to the model
    // host, which routes nowhere else.
    ip('-n', agentNs, 'route', 'add', 'default', 'via', modelAddr);
    const fwd = spawnSync('ip', [
      'netns',
      'exec',
      modelNs,
      'sysctl',
      '-qw',
      'net.ipv4.ip_forward=0',
      'net.ipv6.conf.all.forwarding=0',
    ]);
    if (fwd.status !== 0) throw new Error(`could not turn forwarding off in ${modelNs}`);
  } catch (e) {
    close();
    throw e;
  }
  return { agentNs, modelNs, modelAddr, inAgentNs: (argv) => ['ip', 'netns', 'exec', agentNs, ...argv], close };
}

export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly vendor: string | null;
  /** The turn number this request consumed, or null for a side request. */
  readonly turn: number | null;
  readonly step: unknown;
  // A vendor request body, read by each suite as that vendor shapes it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

export interface ModelApi {
  /** The base URL the agent is pointed at. */
  readonly url: string;
  /** Every request recorded so far, in order. */
  requests(): Recorded[];
  close(): void;
}

/** Start the scripted model API in the network's model host. */
export async function startModelApi(net: TestNetwork, script: unknown, dir: string): Promise<ModelApi> {
  const scriptFile = join(dir, `model-script-${made}.json`);
  const log = join(dir, `model-requests-${made}.jsonl`);
  writeFileSync(scriptFile, JSON.stringify(script));
  writeFileSync(log, '');
  const port = 8080;
  const child: ChildProcess = spawn(
    'ip',
    [
      'netns',
      'exec',
      net.modelNs,
      process.execPath,
      MODEL_API,
      '--listen',
      `${net.modelAddr}:${port}`,
      '--script',
      scriptFile,
      '--log',
      log,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
    child.on('exit', (c) => reject(new Error(`the scripted model API exited (${String(c)})`)));
  });
  return {
    url: `http://${net.modelAddr}:${port}`,
    requests: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as Recorded)
        : [],
    close: () => child.kill('SIGKILL'),
  };
}

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run argv in the agent namespace, collecting its output (bounded by timeoutMs). */
export function runInAgentNs(
  net: TestNetwork,
  argv: readonly string[],
  opts: SpawnOptions & { timeoutMs?: number },
): Promise<Ran> {
  const [cmd, ...args] = net.inAgentNs(argv);
  return new Promise((resolve) => {
    const child = spawn(cmd!, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
