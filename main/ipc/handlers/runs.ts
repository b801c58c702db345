import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import {
  AuditEntry,
  type PlanAnswer,
  type Refusal,
  type RunPlanView,
  type RunTarget,
} from '../../../shared/ipc/channels/runs';
import { formatLoadError } from '../../../shared/ksf/errors';
import { loadSkill } from '../../../shared/ksf/load';
import { describeBlocking } from '../../../shared/policy/verdict';
import { readAudit } from '../../services/runs/audit';
import { listScripts } from '../../services/runs/script';
import { executeRun, prepareRun, type Preparation } from '../../services/runs/service';
import type { RunPlan, RunRequest } from '../../services/runs/types';
import { appendAudit } from '../../services/runs/audit';
import { currentHost, probeBackend, probeReport } from '../../services/sandbox/probe';
import type { BackendStatus } from '../../services/sandbox/types';
import { installedSkills } from '../../services/skills/locate';
import { readSkillTree } from '../../services/skills/reader';
import { verdictFor } from '../../services/verdict/index';
import { HandlerError } from '../errors';
import type { Session } from '../session';
import type { AreaHandlers } from '../table';

/** Runs in flight, by id, with the window that started them (only it may cancel). */
const active = new Map<string, { session: Session; controller: AbortController }>();

/**
 * One-time override tokens: issued with an override plan, good for one start of exactly
 * that skill, script and argv from the same window within a few minutes, then gone.
 * Nothing about an override is ever remembered beyond that.
 */
const overrides = new Map<string, { session: Session; key: string; argv: string; expires: number }>();
export const OVERRIDE_TTL_MS = 5 * 60_000;

interface Ask {
  skill: string;
  mode: 'run' | 'gate';
  script?: string | undefined;
  args: string[];
}

const askKey = (a: Ask): string => JSON.stringify([a.skill, a.mode, a.script ?? null, a.args]);

function request(root: string, a: Ask, unconfined: boolean): RunRequest {
  return {
    projectRoot: root,
    skill: a.skill,
    mode: a.mode,
    ...(a.script !== undefined ? { script: a.script } : {}),
    args: a.args,
    ...(unconfined ? { unconfined: true } : {}),
  };
}

function backendView(b: BackendStatus): RunPlanView['backend'] {
  return {
    backend: b.backend,
    works: b.works,
    ...(b.path ? { path: b.path } : {}),
    ...(b.version ? { version: b.version } : {}),
    ...(b.reason ? { reason: b.reason } : {}),
  };
}

function planView(p: RunPlan): RunPlanView {
  return {
    skill: p.skill,
    version: p.version,
    integrity: p.integrity,
    mode: p.mode,
    ...(p.script !== undefined ? { script: p.script } : {}),
    argv: [...p.argv],
    cwd: p.cwd,
    env: { ...p.env },
    backend: backendView(p.backend),
    rows: p.rows.map((r) => ({ ...r })),
    tools: [...p.tools],
    override: p.override,
    produces: [...p.produces],
  };
}

function refusalOf(p: Extract<Preparation, { ok: false }>): Refusal {
  return {
    reason: p.refusal.reason,
    message: p.refusal.message,
    ...(p.refusal.rows ? { rows: p.refusal.rows.map((r) => ({ ...r })) } : {}),
  };
}

/** Plan without running: the scratch folder prepareRun made is removed again. */
async function preview(root: string, a: Ask, unconfined: boolean): Promise<Preparation> {
  const p = await prepareRun(request(root, a, unconfined));
  if (p.ok && p.prepared.runDir) rmSync(p.prepared.runDir, { recursive: true, force: true });
  return p;
}

/**
 * What an override confirmation showed, for comparing with what is about to run. HOME and
 * TMPDIR are fresh empty per-run folders, so only their presence counts.
 */
function shownKey(plan: RunPlanView): string {
  const env = Object.entries(plan.env).map(([k, v]) => [k, k === 'HOME' || k === 'TMPDIR' ? '<per-run>' : v]);
  return JSON.stringify([plan.argv, env, plan.cwd]);
}

function sweep(now: number): void {
  for (const [t, o] of overrides) if (o.expires <= now) overrides.delete(t);
}

export const runsHandlers: AreaHandlers<'runs'> = {
  targets: async (_req, { session }) => {
    const { ref } = session.requireProject();
    const host = currentHost();
    const backend = await probeBackend(host, { version: true });
    const skills: RunTarget[] = [];
    for (const l of installedSkills(ref.root)) {
      const base: RunTarget = {
        dir: l.nameHint,
        name: l.nameHint,
        version: null,
        mode: null,
        scripts: [],
        permissions: null,
        produces: [],
        rows: [],
        problem: null,
        verdict: null,
      };
      if (l.kind !== 'folder') {
        skills.push({ ...base, problem: l.problem });
        continue;
      }
      const tree = readSkillTree(l.abs, l.display);
      const loaded = tree.ok ? loadSkill(tree.value, { nameHint: l.nameHint }) : tree;
      if (!loaded.ok) {
        skills.push({ ...base, scripts: listScripts(l.abs), problem: formatLoadError(loaded.error) });
        continue;
      }
      const m = loaded.value.manifest;
      const report = await probeReport(host, {
        permissions: m.permissions,
        producesArtifacts: m.artifacts.produces.length > 0,
      });
      const v = verdictFor(ref.root, l.nameHint);
      skills.push({
        ...base,
        name: m.skill.name,
        version: m.skill.version,
        mode: m.targets.mode,
        scripts: listScripts(l.abs),
        permissions: { network: m.permissions.network, write: m.permissions.write, tools: [...m.permissions.tools] },
        produces: [...m.artifacts.produces],
        rows: report.rows.map((r) => ({ ...r })),
        ...(v.ok
          ? {
              verdict: {
                status: v.verdict.status,
                failures: v.verdict.failures,
                warnings: v.verdict.warnings,
                blocking: v.verdict.blocking.map((b) => describeBlocking(l.nameHint, b)),
                accepted: v.verdict.accepted.length,
              },
            }
          : {}),
      });
    }
    return { backend: backendView(backend), skills };
  },

  plan: async (req, { session }) => {
    const { ref } = session.requireProject();
    const p = await preview(ref.root, req, req.unconfined === true);
    if (!p.ok) return { ok: false, refusal: refusalOf(p) } satisfies PlanAnswer;
    const plan = planView(p.prepared.plan);
    if (!plan.override) return { ok: true, plan };
    const now = Date.now();
    sweep(now);
    const token = randomUUID();
    overrides.set(token, { session, key: askKey(req), argv: shownKey(plan), expires: now + OVERRIDE_TTL_MS });
    return { ok: true, plan, overrideToken: token };
  },

  start: async (req, { session }) => {
    const { ref } = session.requireProject();
    let unconfined = false;
    let shown: string | undefined;
    if (req.overrideToken !== undefined) {
      sweep(Date.now());
      const o = overrides.get(req.overrideToken);
      // Consumed whatever happens next: an override is good for one attempt only.
      overrides.delete(req.overrideToken);
      if (!o || o.session !== session)
        throw new HandlerError(
          'forbidden',
          'this override was not shown in this window, was already used or has expired — review the override again',
        );
      if (o.key !== askKey(req))
        throw new HandlerError(
          'forbidden',
          'the override was shown for a different skill, script or arguments — review the override again',
        );
      unconfined = true;
      shown = o.argv;
    }
    const p = await prepareRun(request(ref.root, req, unconfined));
    if (!p.ok) {
      if (p.audit) {
        try {
          appendAudit(ref.root, p.audit);
        } catch {
          // the refusal is reported either way
        }
      }
      return { ok: false, refusal: refusalOf(p) };
    }
    const prepared = p.prepared;
    const plan = planView(prepared.plan);
    if (shown !== undefined && shown !== shownKey(plan)) {
      if (prepared.runDir) rmSync(prepared.runDir, { recursive: true, force: true });
      throw new HandlerError(
        'forbidden',
        'what would run changed since the override was shown — review the override again',
      );
    }
    const runId = prepared.plan.runId;
    const controller = new AbortController();
    active.set(runId, { session, controller });
    // Start after this answer is on its way, so the window knows the id before any event.
    setImmediate(() => {
      void executeRun(prepared, {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'started')
            session.emit('run.status', { runId, type: 'started', at: new Date().toISOString() });
          else if (e.type === 'stdout' || e.type === 'stderr')
            session.emit('run.output', { runId, stream: e.type, chunk: e.text });
          else if (e.type === 'truncated')
            session.emit('run.status', { runId, type: 'truncated', stream: e.stream, limitBytes: e.limitBytes });
          else if (e.type === 'exit') {
            const r = e.result;
            session.emit('run.status', {
              runId,
              type: 'exit',
              outcome: r.outcome,
              exitCode: r.exitCode,
              durationMs: r.durationMs,
              dropped: { ...r.dropped },
              ...(r.verdict ? { verdict: r.verdict } : {}),
              ...(r.verdictDetail ? { verdictDetail: r.verdictDetail } : {}),
              ...(r.message ? { message: r.message } : {}),
            });
          }
        },
      })
        .catch((err: unknown) => {
          session.emit('run.status', {
            runId,
            type: 'exit',
            outcome: 'failed-to-start',
            exitCode: null,
            durationMs: 0,
            dropped: { stdout: 0, stderr: 0 },
            message: err instanceof Error ? err.message : String(err),
          });
        })
        .finally(() => active.delete(runId));
    });
    return { ok: true, runId, plan };
  },

  cancel: (req, { session }) => {
    const run = active.get(req.runId);
    if (!run || run.session !== session) return { cancelled: false };
    run.controller.abort();
    return { cancelled: true };
  },

  history: (req, { session }) => {
    const { ref } = session.requireProject();
    const all = readAudit(ref.root).filter((r) => req.skill === undefined || r.skill === req.skill);
    const records = [];
    const limit = req.limit ?? 200;
    for (let i = all.length - 1; i >= 0 && records.length < limit; i--) {
      const parsed = AuditEntry.safeParse(all[i]);
      if (parsed.success) records.push(parsed.data);
    }
    return { records, total: all.length };
  },
};
