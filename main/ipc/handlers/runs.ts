import { runHistory } from '../../services/runs/desk';
import { runTargets } from '../../services/runs/targets';
import type { AreaHandlers } from '../table';

/** The Runs screen's handlers: the session's run desk owns runs in flight and override tokens. */
export const runsHandlers: AreaHandlers<'runs'> = {
  targets: (_req, { session }) => runTargets(session.requireProject().ref.root),
  plan: (req, { session }) => session.services.runs.plan(session.requireProject().ref.root, req),
  start: (req, { session }) => session.services.runs.start(session.requireProject().ref.root, req),
  cancel: (req, { session }) => ({ cancelled: session.services.runs.cancel(req.runId) }),
  history: (req, { session }) => runHistory(session.requireProject().ref.root, req.skill, req.limit ?? 200),
};
