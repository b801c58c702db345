import type { TargetId } from '../../shared/targets/types';

/**
 * Every TanStack Query key of the renderer, one factory per key. A query, an invalidation
 * and a cache write all name their key through these (tests/views/query-keys.test.ts rejects
 * a literal array at any call site). TanStack matches a key by prefix, so each area's keys
 * start with its word and, where a project owns them, its root: the `all`/`…Of` factories
 * are those prefixes, and invalidating one refetches everything under it.
 */
export const queryKeys = {
  app: {
    info: () => ['app', 'info'] as const,
    recent: () => ['app', 'recent'] as const,
  },
  project: {
    current: () => ['project', 'current'] as const,
    dashboard: (root: string) => ['project', 'dashboard', root] as const,
    /** The last scan kept from an earlier run; never invalidated (it is read once, for the first paint). */
    cachedDashboard: (root: string) => ['project', 'cached-dashboard', root] as const,
    /** Whether changes on disk reach the window; set by the `project.watch` event. */
    watch: (root: string) => ['project', 'watch', root] as const,
    /** Why changes in one folder might not reach the window (the prefix: every folder asked about). */
    watchGaps: (root: string) => ['project', 'watch-gap', root] as const,
    watchGap: (root: string, path: string) => ['project', 'watch-gap', root, path] as const,
  },
  skills: {
    /** Every open skill of the project (the prefix of `get`): a change on disk or an install refetches them. */
    of: (root: string) => ['skills', 'get', root] as const,
    get: (root: string, dir: string) => ['skills', 'get', root, dir] as const,
  },
  /** The figures main computes on the dashboard's worker; all refetched when files change. */
  reports: {
    all: (root: string) => ['reports', root] as const,
    costs: (root: string) => ['reports', root, 'costs'] as const,
    matrix: (root: string) => ['reports', root, 'matrix'] as const,
    explain: (root: string, skill: string, target: TargetId | undefined) =>
      ['reports', root, 'explain', skill, target] as const,
  },
  /** Reports kept from an earlier run; never invalidated (each is read once, for its view's first paint). */
  kept: {
    report: (root: string, kind: 'costs' | 'matrix') => ['kept', root, kind] as const,
  },
  compile: {
    /** The plan of the project as saved; an apply refetches it. */
    plan: (root: string) => ['compile', root, 'plan'] as const,
    /** A skill's text files as saved (where a previews draft starts); refetched when files change. */
    saved: (root: string, dir: string) => ['compile', root, 'saved', dir] as const,
  },
  settings: {
    read: (root: string) => ['settings', 'read', root] as const,
  },
  adopt: {
    /** Rescanned with each dashboard scan (`scannedAt`). */
    scan: (root: string, scannedAt: string) => ['adopt', 'scan', root, scannedAt] as const,
  },
  install: {
    planRemove: (root: string, dir: string) => ['install', 'planRemove', root, dir] as const,
    reviewFiles: (reviewId: string, skill: string) => ['install', 'review', reviewId, skill, 'files'] as const,
    reviewFile: (reviewId: string, skill: string, path: string) =>
      ['install', 'review', reviewId, skill, 'file', path] as const,
  },
  spec: {
    all: (root: string) => ['spec', root] as const,
    list: (root: string) => ['spec', root, 'list'] as const,
    load: (root: string, dir: string) => ['spec', root, 'load', dir] as const,
  },
  runs: {
    all: (root: string) => ['runs', root] as const,
    targets: (root: string) => ['runs', root, 'targets'] as const,
    plan: (root: string, ask: string) => ['runs', root, 'plan', ask] as const,
    /** Every skill's history (the prefix of `history`): a finished or refused run adds to them. */
    histories: (root: string) => ['runs', root, 'history'] as const,
    history: (root: string, skill: string | null) => ['runs', root, 'history', skill ?? ''] as const,
    /** A one-time override plan: a fresh nonce per dialog, so its token is never reused from the cache. */
    override: (ask: string, nonce: string) => ['runs', 'override', ask, nonce] as const,
  },
  evals: {
    overview: (root: string) => ['evals', root, 'overview'] as const,
    status: (root: string, runId: string) => ['evals', root, 'status', runId] as const,
    history: (root: string, skill: string) => ['evals', root, 'history', skill] as const,
    trial: (root: string, key: string) => ['evals', root, 'trial', key] as const,
  },
} as const;
