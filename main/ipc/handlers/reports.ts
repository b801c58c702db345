import type { AreaHandlers } from '../table';

/** The Costs and Matrix views' figures: the open project's hub computes them on its worker, and keeps the last. */
export const reportsHandlers: AreaHandlers<'reports'> = {
  costs: (_req, { session }) => session.requireProject().handle.costs(),
  matrix: (_req, { session }) => session.requireProject().handle.matrix(),
  keptCosts: (_req, { session }) => ({ kept: session.requireProject().handle.keptReport('costs') }),
  keptMatrix: (_req, { session }) => ({ kept: session.requireProject().handle.keptReport('matrix') }),
  explain: async (req, { session }) => ({
    explanation: await session.requireProject().handle.explain(req.skill, req.target),
  }),
};
