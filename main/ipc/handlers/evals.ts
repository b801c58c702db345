import { evalService } from '../../services/evals/service';
import type { AreaHandlers } from '../table';
import type { EvalRunRequest } from '../../../shared/ipc/channels/evals';
import { CodedError } from '../../../shared/result';
import { grantSummary } from '../../../shared/evals/consent';

/** Thin: validate (the contract did), call the eval service, map its answer. */
export const evalsHandlers: AreaHandlers<'evals'> = {
  overview: (_req, { session }) => {
    const { ref } = session.requireProject();
    const o = evalService.overview(ref.root);
    return {
      ...o,
      skills: o.skills.map((s) => ({ ...s, evals: [...s.evals] })),
      runners: o.runners.map((r) => ({ ...r, command: [...r.command] })),
      problems: [...o.problems],
      active: evalService.active(ref.root),
      latest: evalService.latestResults(ref.root).map(view),
    };
  },
  start: async (req, { session }) => {
    const { ref } = session.requireProject();
    return evalService.start(ref.root, session, runRequest(req));
  },
  runners: (req, { session }) => {
    const { ref } = session.requireProject();
    return {
      runners: evalService.runnerApprovals(ref.root, runRequest(req)).map((s) => ({
        id: s.grant.id,
        key: s.key,
        approved: s.approved,
        summary: grantSummary(s.grant),
        changes: [...s.changes],
      })),
    };
  },
  approveRunner: (req, { session }) => {
    const { ref } = session.requireProject();
    const grant = evalService.approveShown(ref.root, req.runner, req.key);
    return { runner: grant.id, summary: grantSummary(grant) };
  },
  status: (req, { session }) => {
    session.requireProject();
    const s = evalService.status(req.runId);
    if (!s) throw new CodedError('not-found', `no eval run ${req.runId} in this session`);
    return {
      ...s,
      results: s.results.map((r) => view({ runId: s.runId, result: r }).result),
      problems: [...s.problems],
    };
  },
  cancel: (req, { session }) => ({ cancelled: evalService.cancel(req.runId, session) }),
  trial: (req, { session }) => {
    const { ref } = session.requireProject();
    const t = evalService.trial(ref.root, req);
    if (!t)
      throw new CodedError(
        'not-found',
        `no stored trial ${req.index + 1} of ${req.skill}/${req.eval} on ${req.runner} in run ${req.runId}`,
      );
    return { ...t, trial: trialView(t.trial), entries: t.entries.map((e) => ({ ...e })) };
  },
  history: (req, { session }) => {
    const { ref } = session.requireProject();
    return { points: evalService.history(ref.root, req.skill) };
  },
};

/** The contract's run request as the service takes it (no absent keys set to undefined). */
function runRequest(req: EvalRunRequest) {
  return {
    skills: req.skills,
    baseline: req.baseline,
    ...(req.evals ? { evals: req.evals } : {}),
    ...(req.runner !== undefined ? { runner: req.runner } : {}),
    ...(req.repeat !== undefined ? { repeat: req.repeat } : {}),
  };
}

type Stored = ReturnType<typeof evalService.storedRuns>[number]['results'][number];

function trialView(t: Stored['trialResults'][number]) {
  return { ...t, tools: [...t.tools], changed: [...t.changed], assertions: t.assertions.map((a) => ({ ...a })) };
}

function view(x: { runId: string; result: Stored }) {
  const r = x.result;
  return {
    runId: x.runId,
    result: {
      ...r,
      assertions: r.assertions.map((a) => ({ ...a })),
      trialResults: r.trialResults.map(trialView),
      ...(r.trigger ? { trigger: { ...r.trigger } } : {}),
    },
  };
}
