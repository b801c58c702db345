import { mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { RunnerConfig } from '../../../shared/evals/model';
import { execute } from '../sandbox/exec';
import { seedHome } from './home-seed';
import { agentInstall, resolveExecutable } from './install-reads';
import { DEFAULT_LIMITS, ENV_ALLOWLIST, restrictionRows, unenforced } from '../sandbox/policy';
import { wrapCommand } from '../sandbox/probe';
import type { BackendStatus, SandboxPolicy } from '../sandbox/types';

/** Cap per stream of what a trial keeps: transcripts of long agent sessions are large. */
export const TRIAL_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

export interface TrialRun {
  readonly outcome: 'exited' | 'timeout' | 'not-found' | 'sandbox-failed' | 'refused' | 'cancelled' | 'signalled';
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
  readonly message?: string;
}

export interface TrialSpec {
  readonly projectRoot: string;
  readonly runner: RunnerConfig;
  /** The runner's argv with the task already in it. */
  readonly argv: readonly string[];
  readonly workspace: string;
  /** The installed copy of the skill inside the workspace, held read-only (absent: baseline). */
  readonly skillDir?: string;
  /** Per-trial folder outside the workspace for the private HOME and TMPDIR. */
  readonly runDir: string;
  readonly backend: BackendStatus;
  readonly parentEnv: Readonly<Record<string, string | undefined>>;
  /** The invoking user's home folders: hidden from the agent like the project is. */
  readonly homes: readonly string[];
  readonly signal?: AbortSignal;
  readonly onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
}

/**
 * The policy of one trial: the workspace writable, the network as the runner declares
 * it, a private empty HOME, the environment cleared except the allowlist and the
 * runner's named variables; the user's homes and the project itself hidden, with the
 * runner's executable and its declared `read` paths made visible again.
 */
export function trialPolicy(spec: TrialSpec, executable: string, installReads: readonly string[] = []): SandboxPolicy {
  const { runner } = spec;
  const env: Record<string, string> = {};
  for (const k of ENV_ALLOWLIST) {
    const v = spec.parentEnv[k];
    if (v !== undefined) env[k] = v;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  for (const k of runner.env) {
    const v = spec.parentEnv[k];
    if (v !== undefined) env[k] = v;
  }
  const scratchDir = join(spec.runDir, 'tmp');
  const homeDir = join(spec.runDir, 'home');
  env.HOME = homeDir;
  env.TMPDIR = scratchDir;
  const reads = [
    ...new Set([
      executable,
      ...installReads,
      ...runner.read.map((r) => (isAbsolute(r) ? r : resolve(spec.projectRoot, r))),
    ]),
  ];
  return {
    network: runner.network,
    write: true,
    tools: [],
    workspace: spec.workspace,
    // A baseline trial has no skill; the sandbox still wants a folder to hold read-only.
    skillDir: spec.skillDir ?? scratchDir,
    readOnlyInWorkspace: [],
    // The trial workspace is a throwaway copy: the agent may change any of it.
    writableEntries: [spec.workspace],
    limits: DEFAULT_LIMITS,
    extraWritable: [],
    extraReadable: reads,
    scratchDir,
    homeDir,
    homeFiles: runner.home,
    hiddenHomes: [...new Set([...spec.homes, resolve(spec.projectRoot)].filter((h) => h !== '' && h !== '/'))],
    env,
    timeoutMs: runner.timeoutMs,
    maxOutputBytes: TRIAL_MAX_OUTPUT_BYTES,
  };
}

/**
 * Why a trial cannot start sandboxed, naming the cause of each restriction the sandbox
 * cannot hold: the network namespace's own reason for the network, the backend's otherwise.
 */
export function refusal(ids: readonly string[], backend: BackendStatus): string {
  const reasons = new Set(
    ids.map((id) =>
      id === 'network' && backend.works
        ? `no private network: ${backend.netns?.reason ?? 'the network namespace was not probed'}`
        : (backend.reason ?? `${backend.backend} is not available`),
    ),
  );
  return `the sandbox cannot hold ${ids.join(', ')} here — ${[...reasons].join('; ')}; evals run only sandboxed`;
}

/**
 * Run one trial's agent inside the sandbox. This is the only place a trial executes,
 * so a change to the sandbox's API lands here once. Never throws.
 */
export async function runTrialProcess(spec: TrialSpec): Promise<TrialRun> {
  const base = { exitCode: null, stdout: '', stderr: '', durationMs: 0 };
  const [cmd, ...args] = spec.argv;
  const executable = cmd === undefined ? undefined : resolveExecutable(cmd, spec.projectRoot, spec.parentEnv.PATH);
  if (executable === undefined) {
    return {
      ...base,
      outcome: 'not-found',
      message: `runner ${spec.runner.id}: ${cmd ?? '(empty command)'} not found${cmd?.includes('/') ? '' : ' on PATH'} — is the agent installed?`,
    };
  }
  // The project is hidden like a home: a stand-in agent at its root shows only itself.
  const install = agentInstall(executable, spec.projectRoot, spec.parentEnv.PATH, [
    ...spec.homes,
    resolve(spec.projectRoot),
  ]);
  const policy = trialPolicy(spec, install.executable, install.reads);
  const missing = unenforced(restrictionRows(spec.backend, policy));
  if (missing.length) {
    return {
      ...base,
      outcome: 'refused',
      message: refusal(
        missing.map((r) => r.id),
        spec.backend,
      ),
    };
  }
  mkdirSync(policy.scratchDir, { recursive: true });
  mkdirSync(policy.homeDir, { recursive: true });
  const fromHome = spec.parentEnv.HOME || spec.homes[0];
  const unseeded = spec.runner.home.length
    ? fromHome
      ? seedHome(spec.runner.id, spec.runner.home, fromHome, policy.homeDir)
      : `runner ${spec.runner.id}: home: no home folder to copy from (HOME is not set)`
    : undefined;
  if (unseeded) return { ...base, outcome: 'refused', message: unseeded };
  const cmdLine = wrapCommand(spec.backend, policy, [install.executable, ...args]);
  if (!cmdLine) return { ...base, outcome: 'refused', message: 'no sandbox backend to run the agent with' };
  let stdout = '';
  let stderr = '';
  const exec = await execute(cmdLine, {
    timeoutMs: policy.timeoutMs,
    maxOutputBytes: policy.maxOutputBytes,
    ...(spec.signal ? { signal: spec.signal } : {}),
    onEvent: (e) => {
      if (e.type !== 'output') return;
      if (e.stream === 'stdout') stdout += e.text;
      else stderr += e.text;
      spec.onOutput?.(e.stream, e.text);
    },
  });
  const done = { exitCode: exec.code, stdout, stderr, durationMs: exec.durationMs };
  if (exec.spawnError) return { ...done, outcome: 'sandbox-failed', message: exec.spawnError };
  if (exec.timedOut)
    return {
      ...done,
      outcome: 'timeout',
      message: `ran past the runner's ${Math.round(policy.timeoutMs / 1000)} s timeout; the whole process tree was killed`,
    };
  if (exec.cancelled) return { ...done, outcome: 'cancelled', message: 'cancelled' };
  if (exec.code === null) return { ...done, outcome: 'signalled', message: `killed by ${exec.signal ?? 'a signal'}` };
  return { ...done, outcome: 'exited' };
}
