import type { WebPreferences } from 'electron';

/** The renderer is served from this privileged custom scheme, never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'skillsmith';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/** The one set of web preferences every window uses: the renderer is untrusted. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

/** True when `url` is a page of the app itself (parsed, never prefix-matched). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Links the app may hand to the system browser: https only, to these hosts (and their
 * subdomains). Everything else is dropped.
 */
export const EXTERNAL_HOSTS = [
  'github.com',
  'docs.anthropic.com',
  'code.claude.com',
  'cursor.com',
  'agentskills.io',
  'npmjs.com',
  'electronjs.org',
] as const;

export function isAllowedExternal(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port) return false;
  const host = u.hostname.toLowerCase();
  return EXTERNAL_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}
