/** The query keys of the Evals view (each defined once, here). */
export const evalsKeys = {
  all: (root: string) => ['evals', root] as const,
  overview: (root: string) => ['evals', root, 'overview'] as const,
  status: (root: string, runId: string) => ['evals', root, 'status', runId] as const,
  history: (root: string, skill: string) => ['evals', root, 'history', skill] as const,
  trial: (root: string, key: string) => ['evals', root, 'trial', key] as const,
};
