/** The query keys of the Runs view (each defined once, here). */
export const runsKeys = {
  all: (root: string) => ['runs', root] as const,
  targets: (root: string) => ['runs', root, 'targets'] as const,
  plan: (root: string, ask: string) => ['runs', root, 'plan', ask] as const,
  /** Every skill's history (the prefix of `history`): a finished or refused run adds to them. */
  histories: (root: string) => ['runs', root, 'history'] as const,
  history: (root: string, skill: string | null) => ['runs', root, 'history', skill ?? ''] as const,
  /** A one-time override plan: a fresh nonce per dialog, so its token is never reused from the cache. */
  override: (ask: string, nonce: string) => ['runs', 'override', ask, nonce] as const,
};
