/**
 * What every real-agent suite sets up: the gate (root for the test network, the pinned
 * CLIs installed), a test network per file, and a run of one agent in a compiled project
 * against a scripted model API.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { cleanup, installSkills, tempDir } from '../../sandbox/helpers';
import { canMakeNetns } from '../../sandbox/netns-host';
import { requireOrSkip, runCli } from '../../support/paths';
import { ensureAgents, type AgentBins } from './install';
import { runInAgentNs, startModelApi, startTestNetwork, type Ran, type Recorded, type TestNetwork } from './net';

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

/**
 * The test network of one suite: made before its tests, removed after them (and the suite's
 * temporary folders with it). `net()` is the network inside a test.
 */
export function networkForSuite(): () => TestNetwork {
  let net: TestNetwork | undefined;
  beforeAll(() => {
    net = startTestNetwork();
  });
  afterAll(() => {
    net?.close();
    cleanup();
  });
  return () => net!;
}

type Skills = Parameters<typeof installSkills>[1];

/** `skillsmith compile` in `root` for one target (kitbash.toml written for it). */
export function compileFor(root: string, target: string): string {
  writeFileSync(join(root, 'kitbash.toml'), `[project]\ntargets = [${JSON.stringify(target)}]\n`);
  const r = runCli(['compile'], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
  return root;
}

/** A project with these skills installed and pinned, compiled for one target. */
export function compiledProject(target: string, skills: Skills): string {
  const root = tempDir('skillsmith-agent-');
  installSkills(root, skills);
  return compileFor(root, target);
}

/**
 * The skills every delivery test compiles, and what each agent must list of them beyond its
 * own: all three, the one needing hooks too (degraded to instruction-only, still delivered).
 */
export const DELIVERY = {
  skills: {
    'alpha-notes': { description: 'Summarise meeting notes into action items. Use when notes are pasted.' },
    'beta-deploy': { description: 'Check a deployment plan before it runs. Use before any deploy.' },
    'hooks-only': { description: 'Needs agent hooks.', toml: '[targets]\nrequires = ["hooks"]' },
  },
  listed: [
    { name: 'alpha-notes', description: 'Summarise meeting notes into action items. Use when notes are pasted.' },
    { name: 'beta-deploy', description: 'Check a deployment plan before it runs. Use before any deploy.' },
    { name: 'hooks-only', description: 'Needs agent hooks.' },
  ],
} as const;
