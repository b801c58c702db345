import { rmSync } from 'node:fs';
import { AuditEntry, type PlanAnswer, type RunPlanView, type StartAnswer } from '../../../shared/ipc/channels/runs';
import type { EventName, EventPayload } from '../../../shared/ipc/contract';
import { CodedError } from '../../../shared/result';
import { appendAudit, readAudit } from './audit';
import type { RunRegistry } from './registry';
import { executeRun, prepareRun, refusalOf, UNCONFINED_HINT, type Preparation } from './service';
import { backendView } from './targets';
import type { RunPlan, RunRequest } from './types';

export type EmitEvent = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** What the window asks to run. */
export interface Ask {
  skill: string;
  mode: 'run' | 'gate';
  script?: string | undefined;
  args: string[];
}

const askKey = (a: Ask): string => JSON.stringify([a.skill, a.mode, a.script ?? null, a.args]);

/**
 * The Runs screen's plan, start, cancel and history for one renderer session: runs and
 * override tokens live in the session's `RunRegistry`, events go to the session's window.
 */
export class RunDesk {
  constructor(
    private readonly registry: RunRegistry,
    private readonly emit: EmitEvent,
  ) {}

  async plan(root: string, a: Ask & { unconfined?: boolean | undefined }): Promise<PlanAnswer> {
    const p = await preview(root, a, a.unconfined === true);
    if (!p.ok) return { ok: false, refusal: refusalOf(p.error) };
    const plan = planView(p.value.plan);
    if (!plan.override) return { ok: true, plan };
    const token = this.registry.issueOverride({ key: askKey(a), shown: shownKey(plan) });
    return { ok: true, plan, overrideToken: token };
  }

  async start(root: string, a: Ask & { overrideToken?: string | undefined }): Promise<StartAnswer> {
    let unconfined = false;
    let shown: string | undefined;
    if (a.overrideToken !== undefined) {
      const o = this.registry.consumeOverride(a.overrideToken);
      if (!o)
        throw new CodedError(
          'forbidden',
          'this override was not shown in this window, was already used or has expired — review the override again',
        );
      if (o.key !== askKey(a))
        throw new CodedError(
          'forbidden',
          'the override was shown for a different skill, script or arguments — review the override again',
        );
      unconfined = true;
      shown = o.shown;
    }
    const p = await prepareRun(request(root, a, unconfined));
    if (!p.ok) {
      if (p.error.audit) {
        try {
          appendAudit(root, p.error.audit);
        } catch {
          // the refusal is reported either way
        }
      }
      return { ok: false, refusal: refusalOf(p.error) };
    }
    const prepared = p.value;
    const plan = planView(prepared.plan);
    if (shown !== undefined && shown !== shownKey(plan)) {
      if (prepared.runDir) rmSync(prepared.runDir, { recursive: true, force: true });
      throw new CodedError(
        'forbidden',
        'what would run changed since the override was shown — review the override again',
      );
    }
    const runId = prepared.plan.runId;
    const signal = this.registry.track(runId);
    // Start after this answer is on its way, so the window knows the id before any event.
    setImmediate(() => {
      void executeRun(prepared, {
        signal,
        onEvent: (e) => {
          if (e.type === 'started') this.emit('run.status', { runId, type: 'started', at: new Date().toISOString() });
          else if (e.type === 'stdout' || e.type === 'stderr')
            this.emit('run.output', { runId, stream: e.type, chunk: e.text });
          else if (e.type === 'truncated')
            this.emit('run.status', { runId, type: 'truncated', stream: e.stream, limitBytes: e.limitBytes });
          else if (e.type === 'exit') {
            const r = e.result;
            this.emit('run.status', {
              runId,
              type: 'exit',
              outcome: r.outcome,
              exitCode: r.exitCode,
              durationMs: r.durationMs,
              dropped: { ...r.dropped },
              ...(r.verdict ? { verdict: r.verdict } : {}),
              ...(r.verdictDetail ? { verdictDetail: r.verdictDetail } : {}),
              ...(r.message ? { message: r.message } : {}),
              ...(r.writes
                ? {
                    writes: {
                      applied: r.writes.applied.map((w) => ({ ...w })),
                      refused: r.writes.refused.map((w) => ({ ...w })),
                      ...(r.writes.notApplied ? { notApplied: r.writes.notApplied } : {}),
                    },
                  }
                : {}),
            });
          }
        },
      })
        .catch((err: unknown) => {
          this.emit('run.status', {
            runId,
            type: 'exit',
            outcome: 'failed-to-start',
            exitCode: null,
            durationMs: 0,
            dropped: { stdout: 0, stderr: 0 },
            message: err instanceof Error ? err.message : String(err),
          });
        })
        .finally(() => this.registry.finished(runId));
    });
    return { ok: true, runId, plan };
  }

  cancel(runId: string): boolean {
    return this.registry.cancel(runId);
  }
}

/** The audit log, newest first, skipping records this version cannot read, in the app's words. */
export function runHistory(root: string, skill: string | undefined, limit: number) {
  const all = readAudit(root).filter((r) => skill === undefined || r.skill === skill);
  const records = [];
  for (let i = all.length - 1; i >= 0 && records.length < limit; i--) {
    const parsed = AuditEntry.safeParse(all[i]);
    if (parsed.success) records.push(inTheApp(parsed.data));
  }
  return { records, total: all.length };
}

/**
 * The log records an override's backend as `none (--unconfined)`, the command line's name
 * for it; the app names what it did. Refusals logged before the log kept them without the
 * command line's hint still carry it: the app offers that override as a button instead.
 */
function inTheApp<R extends { override: boolean; backend: string; refused?: string | undefined }>(r: R): R {
  const backend = r.override ? 'none (run once without the sandbox)' : r.backend;
  const refused = r.refused?.replace(UNCONFINED_HINT, '');
  return { ...r, backend, ...(refused !== undefined ? { refused } : {}) };
}

function request(root: string, a: Ask, unconfined: boolean): RunRequest {
  return {
    projectRoot: root,
    skill: a.skill,
    mode: a.mode,
    ...(a.script !== undefined ? { script: a.script } : {}),
    args: a.args,
    ...(unconfined ? { unconfined: true } : {}),
    surface: 'app',
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

/** Plan without running: the scratch folder prepareRun made is removed again. */
async function preview(root: string, a: Ask, unconfined: boolean): Promise<Preparation> {
  const p = await prepareRun(request(root, a, unconfined));
  if (p.ok && p.value.runDir) rmSync(p.value.runDir, { recursive: true, force: true });
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
