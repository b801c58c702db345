/**
 * What every real-agent suite sets up: the gate (root for the test network, the pinned
 * CLIs installed), a test network per file, and a run of one agent in a compiled project
 * against a scripted model API.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { requireOrSkip } from '../../support/paths';
import { ensureAgents, type AgentBins } from './install';
import { canMakeNetns, runInAgentNs, startModelApi, type Ran, type Recorded, type TestNetwork } from './net';

/**
 * The pinned CLIs, or undefined when this machine cannot run the suites (not root, no
 * iproute2, no registry) and SKILLSMITH_REQUIRE_ALL is unset; under it, a throw.
 */
export function agentsOrSkip(): AgentBins | undefined {
  if (!requireOrSkip('root with iproute2 (the real-agent test network)', canMakeNetns())) return undefined;
  try {
    return ensureAgents();
  } catch (e) {
    requireOrSkip(`the pinned agent CLIs (${e instanceof Error ? e.message : String(e)})`, false);
    return undefined;
  }
}

export interface AgentRun extends Ran {
  readonly requests: Recorded[];
  /** The requests that were the agent's turns, in order. */
  readonly turns: Recorded[];
}

/** Run `argv` in `cwd` in the agent namespace, its model the scripted API playing `script`. */
export async function runAgent(opts: {
  net: TestNetwork;
  /** A folder for the script, the request log and the agent's HOME. */
  dir: string;
  cwd: string;
  script: unknown;
  argv: (apiUrl: string) => string[];
  env: (apiUrl: string, home: string) => Record<string, string>;
  timeoutMs?: number;
}): Promise<AgentRun> {
  const api = await startModelApi(opts.net, opts.script, opts.dir);
  try {
    const home = join(opts.dir, 'home');
    mkdirSync(home, { recursive: true });
    const ran = await runInAgentNs(opts.net, opts.argv(api.url), {
      cwd: opts.cwd,
      env: {
        PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
        LANG: 'C.UTF-8',
        ...opts.env(api.url, home),
      },
      timeoutMs: opts.timeoutMs ?? 120_000,
    });
    const requests = api.requests();
    return { ...ran, requests, turns: requests.filter((r) => r.turn !== null) };
  } finally {
    api.close();
  }
}
