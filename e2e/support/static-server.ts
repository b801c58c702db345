/**
 * A tiny read-only static file server for the browser suites: it serves one directory
 * (the built renderer) on 127.0.0.1 and a random port. GET and HEAD only; anything that
 * would resolve outside the root — `..` segments, encoded or not, backslashes, NUL bytes,
 * or a symlink pointing elsewhere — is refused with 403.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, isAbsolute, relative, resolve } from 'node:path';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  /** Origin with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  readonly port: number;
  /** Every request path the server saw, in order (for assertions). */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

function within(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/**
 * Map a raw request target to a file under `root`, or say why not. Exported so the
 * refusal rules can be tested without a socket.
 */
export function resolveRequestPath(root: string, rawUrl: string): { ok: true; file: string } | { ok: false; status: number } {
  const pathPart = rawUrl.split(/[?#]/, 1)[0] ?? '';
  if (!pathPart.startsWith('/')) return { ok: false, status: 400 };
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    return { ok: false, status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 403 };
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..')) return { ok: false, status: 403 };
  const file = resolve(root, '.' + decoded);
  if (!within(root, file)) return { ok: false, status: 403 };
  return { ok: true, file };
}

export async function startStaticServer(rootDir: string): Promise<StaticServer> {
  const root = await realpath(resolve(rootDir));
  const requests: string[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    requests.push(rawUrl);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'method not allowed');
    }
    const mapped = resolveRequestPath(root, rawUrl);
    if (!mapped.ok) return send(res, mapped.status, mapped.status === 403 ? 'forbidden' : 'bad request');
    let file = mapped.file;
    try {
      if ((await stat(file)).isDirectory()) file = resolve(file, 'index.html');
      // Follow symlinks, then check again: a link inside the root must not lead out of it.
      file = await realpath(file);
      if (!within(root, file)) return send(res, 403, 'forbidden');
      const info = await stat(file);
      if (!info.isFile()) return send(res, 404, 'not found');
      res.writeHead(200, {
        'content-type': contentTypeFor(file),
        'content-length': String(info.size),
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') return void res.end();
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
    } catch {
      send(res, 404, 'not found');
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'internal error');
      else res.destroy();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    requests,
    close: () =>
      new Promise<void>((ok, fail) => {
        server.closeAllConnections();
        server.close((err) => (err ? fail(err) : ok()));
      }),
  };
}
