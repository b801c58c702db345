import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { formatError, type Result, type SkillsmithError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { type Skill } from '../../../shared/ksf/model';
import { isKsfName } from '../../../shared/names';
import { describeBlocking, RESOLVE_BLOCKING } from '../../../shared/policy/verdict';
import { pinRefusal, treeIntegrityFast, verifySkill, type PinCheck } from '../lock/index';
import { resolveInside } from '../fs/contain';
import { readProjectConfig } from '../project/config';
import { execute, type ExecOutcome } from '../sandbox/exec';
import { formatBytes } from '../../../shared/text/format';
import type { Surface } from '../../../shared/text/surface';
import { policyFromManifest, restrictionRows, unenforced } from '../sandbox/policy';
import { enclosingGit } from '../sandbox/protect';
import { applyStage, stageProject, type Stage } from '../sandbox/stage';
import {
  currentHost,
  probeBackend,
  unconfinedCommand,
  withNetns,
  wrapCommand,
  type SandboxHost,
} from '../sandbox/probe';
import type { BackendStatus, RestrictionRow, SandboxPolicy } from '../sandbox/types';
import { installedSkills, SKILLS_DIR } from '../skills/locate';
import { readSkillTree } from '../skills/reader';
import { verdictOfSkill } from '../verdict/index';
import { judgeArtifact, knownArtifact, listArtifacts, type ArtifactVerdict } from './artifacts';
import { appendAudit, type AuditRecord } from './audit';
import { gateScript, resolveScript } from './script';
import type { RefusalReason, RunEvent, RunPlan, RunRequest, RunResult } from './types';
import { isRealDir, isSymlink } from '../fs/probe';

/** What the service needs from its surroundings; tests replace any of it. */
export interface RunDeps {
  readonly host?: SandboxHost;
  /** The parent's environment (only the allowlist is read from it). */
  readonly parentEnv?: Readonly<Record<string, string | undefined>>;
  /** Integrity against kitbash.lock (H4's verifySkill). */
  readonly verify?: (projectRoot: string, name: string) => PinCheck;
  readonly probe?: (host: SandboxHost) => Promise<BackendStatus>;
  /** Where per-run scratch and home folders are made. */
  readonly tmpRoot?: string;
}

export interface Prepared {
  readonly plan: RunPlan;
  /** @internal what executeRun needs besides the plan */
  readonly policy?: SandboxPolicy;
  readonly runDir?: string;
  readonly request: RunRequest;
  readonly skill: Skill;
}

/** What the command line adds to a refusal the OS sandbox is why of (the audit log keeps the refusal without it). */
export const UNCONFINED_HINT =
  '. Pass --unconfined to run it once without the sandbox (shown before it runs, never remembered)';

/**
 * A run refused before anything ran: the reason the Runs tab shows, the restriction rows
 * when the sandbox is why, and the audit record to append (none for a request that names
 * nothing installed).
 */
export interface RunRefusal extends SkillsmithError {
  readonly reason: RefusalReason;
  readonly rows?: readonly RestrictionRow[];
  readonly audit?: AuditRecord;
}

export type Preparation = Result<Prepared, RunRefusal>;

/** The refusal as a run result, an event and the Runs tab carry it. */
export function refusalOf({ reason, message, rows }: RunRefusal) {
  return { reason, message, ...(rows ? { rows: rows.map((r) => ({ ...r })) } : {}) };
}

/**
 * Everything up to the point of running: locate the installed skill, check its integrity
 * against kitbash.lock, load its manifest, pick the script, build the policy from its
 * permissions and label every restriction on this machine. Refuses (fail closed) when a
 * required restriction cannot be held, unless the request carries the one-time override.
 * The plan is what an app shows before the user confirms an override.
 */
export async function prepareRun(req: RunRequest, deps: RunDeps = {}): Promise<Preparation> {
  const root = req.projectRoot;
  const refuse = (
    reason: RefusalReason,
    message: string,
    extra: {
      rows?: readonly RestrictionRow[];
      version?: string;
      integrity?: string;
      backend?: string;
      /** What the caller's surface adds to the message (the command line's flag); not kept in the audit log. */
      hint?: string;
    } = {},
  ): Preparation => ({
    ok: false,
    error: {
      code: reason === 'not-installed' ? 'not-found' : reason === 'bad-request' ? 'invalid-request' : 'forbidden',
      reason,
      message: message + (extra.hint ?? ''),
      ...(extra.rows ? { rows: extra.rows } : {}),
      ...(reason === 'not-installed' || reason === 'bad-request'
        ? {}
        : {
            audit: {
              time: new Date().toISOString(),
              runId: randomUUID(),
              skill: req.skill,
              version: extra.version ?? null,
              integrity: extra.integrity ?? null,
              mode: req.mode,
              script: req.script ?? null,
              argv: [...req.args],
              backend: extra.backend ?? 'none',
              enforcement: Object.fromEntries((extra.rows ?? []).map((r) => [r.id, r.label])),
              override: req.unconfined === true,
              outcome: 'refused',
              exitCode: null,
              durationMs: 0,
              refused: message,
            },
          }),
    },
  });

  if (!isKsfName(req.skill))
    return refuse('bad-request', `"${req.skill}" is not a skill name — run takes the name of an installed skill`);
  const skillDir = join(root, SKILLS_DIR, req.skill);
  if (!isRealDir(skillDir)) {
    const names = installedSkills(root).map((s) => s.nameHint);
    return refuse(
      'not-installed',
      `no installed skill "${req.skill}" under .kitbash/skills/${names.length ? ` (installed: ${names.join(', ')})` : ''} — only installed, pinned skills run`,
    );
  }

  const pin = (deps.verify ?? verifySkill)(root, req.skill);
  if (!pin.ok) return refuse('integrity', pinRefusal(req.skill, pin.error));

  const tree = readSkillTree(skillDir, `${SKILLS_DIR}/${req.skill}`.split('\\').join('/'));
  if (!tree.ok) return refuse('invalid-skill', formatError(tree.error), { integrity: pin.value.integrity });
  const loaded = loadSkill(tree.value, { nameHint: req.skill });
  if (!loaded.ok) return refuse('invalid-skill', formatError(loaded.error), { integrity: pin.value.integrity });
  const skill = loaded.value;
  const m = skill.manifest;
  const known = { version: m.skill.version, integrity: pin.value.integrity };

  // The project's [policy] is enforced at install; a run re-checks the two that concern it,
  // so tightening the policy later takes effect without a reinstall.
  const config = readProjectConfig(root);
  if (!config.ok) return refuse('policy', formatError(config.error), known);
  // One verdict everywhere: a skill with a blocking finding no exception accepts does not
  // run, however it got into the project (install, clone, hand copy). The integrity is of
  // the very tree that was checked, and must still be the pinned one.
  const checkedIntegrity = treeIntegrityFast(tree.value);
  if (checkedIntegrity !== pin.value.integrity)
    return refuse('integrity', `${req.skill} changed while it was being checked — try again`, known);
  const verdict = verdictOfSkill(skill, checkedIntegrity, config.value);
  if (verdict.blocking.length > 0) {
    return refuse(
      'blocked',
      `refusing to run: ${verdict.blocking.map((b) => describeBlocking(req.skill, b)).join('; ')}. To resolve: ${RESOLVE_BLOCKING}`,
      known,
    );
  }
  const pol = config.value.policy;
  const denied = [
    ...(pol?.denyNetwork && m.permissions.network
      ? [`${req.skill} declares network permission and deny_network = true`]
      : []),
    ...(pol?.denyWrite && m.permissions.write ? [`${req.skill} declares write permission and deny_write = true`] : []),
  ];
  if (denied.length) return refuse('policy', `refusing to run: ${denied.join('; ')} (kitbash.toml [policy])`, known);

  const produces = req.mode === 'gate' ? m.artifacts.produces : [];
  let scriptName: string | undefined = req.script;
  if (req.mode === 'gate') {
    if (m.targets.mode !== 'gate')
      return refuse(
        'not-a-gate',
        `${req.skill} is not a gate-mode skill (targets.mode = "${m.targets.mode}") — use "skillsmith run ${req.skill} <script>"`,
        known,
      );
    const unknown = produces.filter((r) => !knownArtifact(r));
    if (unknown.length)
      return refuse(
        'no-verdict-source',
        `${req.skill} produces ${unknown.join(', ')}, which has no schema in spec/schema/artifacts/ — its verdict cannot be validated`,
        known,
      );
    if (scriptName === undefined) {
      const g = gateScript(skillDir);
      if (g.ok) scriptName = g.value;
      else if (g.error.code !== 'not-found') return refuse('no-script', g.error.message, known);
      else if (produces.length === 0) {
        return refuse(
          'no-verdict-source',
          `${req.skill} cannot give a verdict: it has no scripts/ and no artifacts.produces — a gate's verdict comes from a script's exit code or a schema-validated artifact`,
          known,
        );
      }
    }
  } else if (scriptName === undefined) {
    return refuse('bad-request', "name the script to run (a file in the skill's scripts/ folder)");
  }

  let argv: string[] = [];
  let scriptRel: string | undefined;
  if (scriptName !== undefined) {
    const s = resolveScript(skillDir, scriptName, req.args);
    if (!s.ok) return refuse('no-script', `${req.skill}: ${s.error.message}`, known);
    argv = s.value.argv;
    scriptRel = s.value.rel;
  }

  const parentEnv = deps.parentEnv ?? process.env;
  const homes = [parentEnv.HOME ?? '', safeHome()].filter((h) => h !== '');
  // The home is hidden by covering it; a project that is (or holds) the home would bring it back.
  const exposed = homes.find((h) => h === '/' || isInside(resolve(root), resolve(h)));
  if (exposed !== undefined || resolve(root) === '/') {
    return refuse(
      'bad-request',
      `the project folder ${root} is or contains the home folder ${exposed ?? '/'} — a run would expose it; run from a project folder inside it`,
    );
  }
  const host = deps.host ?? currentHost();
  const probed = await (deps.probe ?? probeBackend)(host);
  const status = m.permissions.network ? await withNetns(probed, host) : probed;
  const runDir = mkdtempSync(join(deps.tmpRoot ?? tmpdir(), 'skillsmith-run-'));
  const policy = policyFromManifest({
    manifest: m,
    workspace: root,
    skillDir,
    scratchDir: join(runDir, 'scratch'),
    homeDir: join(runDir, 'home'),
    parentEnv,
    ...(req.env ? { passEnv: req.env } : {}),
    hiddenHomes: homes,
    ...(req.timeoutMs !== undefined ? { timeoutMs: req.timeoutMs } : {}),
    ...(req.maxOutputBytes !== undefined ? { maxOutputBytes: req.maxOutputBytes } : {}),
    ...(req.limits ? { limits: req.limits } : {}),
    enclosingGit: enclosingGit(root, homes),
  });
  // A writable island must be a real folder inside the project: bwrap would follow a symlink
  // and bind whatever it points at writable.
  const bad = policy.extraWritable.find((d) => isSymlink(d) || !resolveInside(root, d));
  if (bad !== undefined) {
    rmSync(runDir, { recursive: true, force: true });
    return refuse(
      'bad-request',
      `${relative(root, bad)} is a symlink or leaves the project — a gate writes its artifacts only into a real .kitbash/artifacts/ folder`,
      known,
    );
  }
  const surface = req.surface ?? 'cli';
  const sandboxed = restrictionRows(status, policy, false, surface);
  const missing = scriptName === undefined ? [] : unenforced(sandboxed);
  const cleanup = (): void => rmSync(runDir, { recursive: true, force: true });
  if (missing.length > 0 && req.unconfined !== true) {
    cleanup();
    const netWhy =
      missing.some((r) => r.id === 'network') && status.netns?.reason
        ? `network = true needs its own network namespace and ${status.netns.reason}`
        : undefined;
    const why = status.reason ?? netWhy ?? `${status.backend} does not hold them`;
    // The app offers the override as a button beside the refusal, and its dialog says the rest.
    const hint = surface === 'cli' ? UNCONFINED_HINT : '';
    return refuse(
      'unenforced',
      `refusing to run ${req.skill}: ${missing.map((r) => r.id).join(', ')} cannot be enforced here — ${why}`,
      { ...known, rows: sandboxed, backend: status.backend, hint },
    );
  }
  if (missing.length === 0 && req.unconfined === true && scriptName !== undefined) {
    cleanup();
    return refuse(
      'bad-request',
      `${surface === 'cli' ? '--unconfined is' : 'Running once without the sandbox is'} only for a machine that cannot enforce the sandbox; ${status.backend} holds every required restriction here — run without it`,
    );
  }
  const override = req.unconfined === true && scriptName !== undefined;
  const rows = override ? restrictionRows(status, policy, true, surface) : sandboxed;
  const plan: RunPlan = {
    runId: randomUUID(),
    skill: req.skill,
    version: m.skill.version,
    integrity: pin.value.integrity,
    mode: req.mode,
    ...(scriptRel !== undefined ? { script: scriptRel } : {}),
    argv,
    cwd: root,
    env: policy.env,
    backend: status,
    rows,
    tools: m.permissions.tools,
    override,
    produces,
  };
  return { ok: true, value: { plan, policy, runDir, request: req, skill } };
}

export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: RunEvent) => void;
}

/** Run a prepared plan: stream its events, judge a gate's artifacts, append the audit record. */
export async function executeRun(prepared: Prepared, opts: ExecuteOptions = {}): Promise<RunResult> {
  const { plan, policy, runDir } = prepared;
  const emit = opts.onEvent ?? (() => undefined);
  const root = prepared.request.projectRoot;
  const startedAt = new Date();
  emit({ type: 'started', plan });

  let exec: ExecOutcome | undefined;
  let writes: RunResult['writes'];
  const before = new Map<string, number>();
  try {
    if (plan.argv.length > 0 && policy && runDir) {
      // write = true: the copy is made now, when the script is about to run (a plan shown and
      // never run costs nothing); --unconfined runs in the project itself, as its plan says.
      const staged = policy.write && !plan.override ? await stageOrWhy(root, join(runDir, 'stage')) : undefined;
      if (typeof staged === 'string') throw new StageFailed(staged);
      const stage = staged;
      const confined: SandboxPolicy = stage ? { ...policy, stage: { dir: stage.dir, bound: stage.bound } } : policy;
      mkdirSync(policy.scratchDir, { recursive: true });
      mkdirSync(policy.homeDir, { recursive: true });
      for (const d of policy.extraWritable) mkdirSync(d, { recursive: true });
      for (const ref of plan.produces) for (const f of listArtifacts(root, ref)) before.set(f.abs, f.mtimeMs);
      const cmd = plan.override
        ? unconfinedCommand(policy, plan.argv)
        : wrapCommand(plan.backend, confined, plan.argv, runDir);
      if (!cmd) throw new Error('no sandbox backend to run with');
      exec = await execute(cmd, {
        timeoutMs: policy.timeoutMs,
        maxOutputBytes: policy.maxOutputBytes,
        ...(opts.signal ? { signal: opts.signal } : {}),
        onEvent: (e) => {
          if (e.type === 'output') emit({ type: e.stream, text: e.text });
          else if (e.type === 'truncated') emit({ type: 'truncated', stream: e.stream, limitBytes: e.limitBytes });
        },
      });
      if (stage) writes = stagedWrites(root, stage, exec);
    }
  } catch (e) {
    if (!(e instanceof StageFailed)) throw e;
    exec = { ...NOT_STARTED, spawnError: e.message };
  } finally {
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  }

  const outcome = !exec
    ? 'exited'
    : exec.spawnError
      ? 'failed-to-start'
      : exec.timedOut
        ? 'timeout'
        : exec.cancelled
          ? 'cancelled'
          : 'exited';
  let result: RunResult = {
    runId: plan.runId,
    outcome,
    exitCode: exec ? exec.code : null,
    durationMs: exec?.durationMs ?? 0,
    dropped: exec?.dropped ?? { stdout: 0, stderr: 0 },
    strays: exec?.strays ?? 0,
    ...(writes ? { writes } : {}),
    ...(exec?.spawnError
      ? { message: exec.spawnError }
      : limitMessage(exec, policy, prepared.request.surface ?? 'cli')
        ? { message: limitMessage(exec, policy, prepared.request.surface ?? 'cli')! }
        : {}),
  };
  if (plan.mode === 'gate') result = { ...result, ...gateVerdict(prepared, result, before, exec !== undefined) };

  const record: AuditRecord = {
    time: startedAt.toISOString(),
    runId: plan.runId,
    skill: plan.skill,
    version: plan.version,
    integrity: plan.integrity,
    mode: plan.mode,
    script: plan.script ?? null,
    argv: plan.argv,
    backend: plan.override ? 'none (--unconfined)' : exec ? plan.backend.backend : 'none (no script ran)',
    enforcement: Object.fromEntries(plan.rows.map((r) => [r.id, r.label])),
    tools: plan.tools,
    override: plan.override,
    outcome: result.outcome,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    ...(result.dropped.stdout || result.dropped.stderr ? { truncated: result.dropped } : {}),
    ...(result.strays ? { strays: result.strays } : {}),
    ...(result.verdict ? { verdict: result.verdict } : {}),
    ...(writes
      ? {
          writes: {
            applied: writes.applied.map((w) => `${w.change} ${w.path}`),
            refused: writes.refused.map((w) => `${w.path}: ${w.reason}`),
            ...(writes.notApplied ? { notApplied: writes.notApplied } : {}),
          },
        }
      : {}),
  };
  try {
    appendAudit(root, record);
  } catch (e) {
    result = {
      ...result,
      message: `${result.message ? `${result.message}; ` : ''}could not append to .kitbash/runs.jsonl (${e instanceof Error ? e.message : String(e)})`,
    };
  }
  emit({ type: 'exit', result });
  return result;
}

/** prepare + execute; a refusal is an event and a result too, so callers handle one shape. */
export async function startRun(req: RunRequest, deps: RunDeps = {}, opts: ExecuteOptions = {}): Promise<RunResult> {
  const p = await prepareRun(req, deps);
  if (!p.ok) {
    if (p.error.audit) {
      try {
        appendAudit(req.projectRoot, p.error.audit);
      } catch {
        // the refusal is reported either way
      }
    }
    opts.onEvent?.({ type: 'refused', ...refusalOf(p.error) });
    return {
      runId: p.error.audit?.runId ?? randomUUID(),
      outcome: 'refused',
      exitCode: null,
      durationMs: 0,
      dropped: { stdout: 0, stderr: 0 },
      strays: 0,
      refusal: refusalOf(p.error),
    };
  }
  return executeRun(p.value, opts);
}

class StageFailed extends Error {}

const NOT_STARTED: ExecOutcome = {
  code: null,
  signal: null,
  timedOut: false,
  cancelled: false,
  durationMs: 0,
  dropped: { stdout: 0, stderr: 0 },
  strays: 0,
};

/** The staged copy, or why it could not be made (the run then does not start). */
async function stageOrWhy(root: string, dir: string): Promise<Stage | string> {
  try {
    return await stageProject(root, dir);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * A write-granted run's changes reach the project only when the script ran to its end (any
 * exit code: a checker that exits 1 may still have written its report); a run killed by its
 * timeout or cancelled may have stopped half-way through a change, so nothing of it is applied.
 */
function stagedWrites(root: string, stage: Stage, exec: ExecOutcome): RunResult['writes'] {
  if (exec.spawnError || exec.timedOut || exec.cancelled) {
    const why = exec.spawnError ? 'did not start' : exec.timedOut ? 'timed out' : 'was cancelled';
    return { applied: [], refused: [], notApplied: `the run ${why}: none of its changes were applied` };
  }
  try {
    return applyStage(root, stage);
  } catch (e) {
    return {
      applied: [],
      refused: [],
      notApplied: `its changes could not be read back (${e instanceof Error ? e.message : String(e)})`,
    };
  }
}

/**
 * A gate passes only when its script (if any) exited 0 and every produced artifact type
 * has a document that validates and does not carry a failing verdict. Documents the
 * script wrote during this run are judged; when it wrote none of a type, the ones already
 * there (e.g. written by the agent that ran the skill) are judged instead and marked as
 * not written by this run.
 */
function gateVerdict(
  prepared: Prepared,
  r: RunResult,
  before: ReadonlyMap<string, number>,
  ran: boolean,
): Pick<RunResult, 'verdict' | 'verdictDetail' | 'artifacts'> {
  const { plan } = prepared;
  if (ran && r.outcome !== 'exited')
    return { verdict: 'fail', verdictDetail: `the verdict script did not finish (${r.outcome})` };
  if (ran && r.exitCode !== 0)
    return { verdict: 'fail', verdictDetail: `the verdict script exited ${String(r.exitCode)}` };
  const producer = `${plan.skill}@${plan.version}`;
  const artifacts: ArtifactVerdict[] = [];
  const problems: string[] = [];
  for (const ref of plan.produces) {
    const all = listArtifacts(prepared.request.projectRoot, ref);
    const written = ran ? all.filter((f) => before.get(f.abs) !== f.mtimeMs) : [];
    const files = written.length ? written : all;
    if (files.length === 0) {
      const type = ref.slice(0, ref.indexOf('@'));
      problems.push(
        `no .kitbash/artifacts/${type}.json (${ref}) to take the verdict from${ran ? ' — the script did not write one' : ''}`,
      );
      continue;
    }
    for (const f of files) {
      const v: ArtifactVerdict = { ...judgeArtifact(f, producer), fresh: written.length > 0 };
      artifacts.push(v);
      if (v.status !== 'pass') problems.push(`${v.file} ${v.status === 'fail' ? 'fails' : 'is invalid'}: ${v.detail}`);
    }
  }
  return problems.length
    ? { verdict: 'fail', verdictDetail: problems.join('; '), artifacts }
    : { verdict: 'pass', artifacts };
}

/**
 * A limit the run ran into, in words: the cgroup's counters, or the signal an rlimit
 * leaves (the supervisor shell reports a signal death as 128 + the signal's number).
 */
function limitMessage(
  exec: ExecOutcome | undefined,
  policy: SandboxPolicy | undefined,
  surface: Surface,
): string | undefined {
  if (!exec || !policy) return undefined;
  // The command line names the flag that raises the limit; the app runs with the defaults.
  const flag = (f: string): string => (surface === 'cli' ? `; ${f}` : '');
  if (exec.limitHit === 'processes')
    return `the run hit its process limit (${policy.limits.processes}${flag('--max-processes')})`;
  if (exec.limitHit === 'memory')
    return `the run hit its memory limit (${policy.limits.memoryBytes} bytes${flag('--max-memory')})`;
  if (exec.code === 128 + 24)
    return `the run hit its CPU-time limit (${policy.limits.cpuSeconds} s per process${flag('--max-cpu')})`;
  // A runtime that cannot get memory under RLIMIT_DATA aborts (V8: "heap out of memory"),
  // so SIGABRT is the data cap's usual mark; it is named as likely, not certain.
  const cap = `${formatBytes(policy.limits.memoryBytes)} per process${flag('--max-memory')}`;
  if (exec.code === 128 + 6) return `the run aborted (SIGABRT), most likely at its memory limit (${cap})`;
  // V8 also segfaults, about one run in ten, when an mmap is refused under the cap; a
  // segfault has other causes too, so this one is only "possibly".
  if (exec.code === 128 + 11) return `the run crashed (SIGSEGV), possibly at its memory limit (${cap})`;
  return undefined;
}

/** `p` is `root` or below it. */
function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function safeHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return homedir();
  }
}
