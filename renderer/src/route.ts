import { useSyncExternalStore } from 'react';

/**
 * Where the person is inside an open project, kept in the URL hash so a reload (or the
 * back button) lands on the same screen: `#/<view>` or `#/<view>/<arg>`, e.g.
 * `#/editor/prereview`. The argument is always URI-encoded.
 */
export interface Route {
  readonly view: string;
  readonly arg?: string;
}

export function parseRoute(hash: string): Route {
  const m = /^#\/([a-z-]+)(?:\/(.*))?$/.exec(hash);
  if (!m) return { view: 'dashboard' };
  let arg: string | undefined;
  try {
    arg = m[2] ? decodeURIComponent(m[2]) : undefined;
  } catch {
    arg = undefined;
  }
  return arg ? { view: m[1]!, arg } : { view: m[1]! };
}

export function routeHash(route: Route): string {
  return `#/${route.view}${route.arg ? `/${encodeURIComponent(route.arg)}` : ''}`;
}

export function navigate(route: Route): void {
  const next = routeHash(route);
  if (window.location.hash !== next) window.location.hash = next;
}

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}
