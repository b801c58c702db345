import { readFile } from 'node:fs/promises';
import type { Protocol } from 'electron';
import { rendererCsp } from '../host/csp';
import { contentTypeFor, existingFileInside, mapUrlPath } from '../host/static';
import { APP_HOST, APP_SCHEME } from './secure';

/** Privileges for `app://` — must be registered before the app is ready. */
export const APP_SCHEME_PRIVILEGES = [
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true },
  },
];

function refuse(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/**
 * Answer one `app://skillsmith/<path>` request from the built renderer folder. Other
 * hosts, `..`, encoded traversal, NUL and symlinks out of the folder are refused.
 */
export async function appProtocolResponse(rendererDir: string, rawUrl: string, method = 'GET'): Promise<Response> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refuse(400, 'bad request');
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return refuse(404, 'not found');
  if (method !== 'GET' && method !== 'HEAD') return refuse(405, 'method not allowed');
  // The WHATWG parser already folded plain `..`; the raw text is checked too, so an
  // encoded or backslashed climb is refused rather than normalised.
  const rawPath = rawUrl.slice(rawUrl.indexOf(APP_HOST) + APP_HOST.length).split(/[?#]/, 1)[0] || '/';
  if (/(^|[\\/])\.\.([\\/]|$)/.test(safeDecode(rawPath) ?? '..')) return refuse(403, 'forbidden');
  const mapped = mapUrlPath(rendererDir, url.pathname);
  if (!mapped.ok) return refuse(mapped.status, mapped.status === 403 ? 'forbidden' : 'bad request');
  const found = await existingFileInside(rendererDir, mapped.file);
  if (!found.ok) return refuse(found.status, found.status === 403 ? 'forbidden' : 'not found');
  const headers: Record<string, string> = {
    'content-type': contentTypeFor(found.file),
    'x-content-type-options': 'nosniff',
  };
  if (found.file.endsWith('.html')) headers['content-security-policy'] = rendererCsp();
  return new Response(method === 'HEAD' ? null : await readFile(found.file), { status: 200, headers });
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => appProtocolResponse(rendererDir, request.url, request.method));
}
