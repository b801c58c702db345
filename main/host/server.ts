import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Platform, Session } from '../ipc/session';
import { rendererCsp } from './csp';
import { contentTypeFor, existingFileInside, mapUrlPath } from './static';

export interface HostOptions {
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  readonly platform: Platform;
  /** 0 or absent: a free port. */
  readonly port?: number;
  /** Opened for a new browser tab until a tab opens another project; then that one is. */
  readonly initialProject?: string;
  /** For tests; a fresh random token otherwise. */
  readonly token?: string;
  /** How long an unused one-time code (`oneTimeUrl`) stays valid; 2 minutes by default. */
  readonly codeTtlMs?: number;
  /** How long a tab's session outlives its last event socket. */
  readonly sessionGraceMs?: number;
}

export interface Host {
  /** `http://127.0.0.1:<port>/?token=<token>` — what `skillsmith serve` prints. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /**
   * `http://127.0.0.1:<port>/?code=<code>` with a fresh one-time code, for `serve --open`:
   * the tab exchanges it for the token once, and the code is useless from then on (and
   * after `codeTtlMs` unused), so the URL in the opener's argv and the browser's history
   * opens nothing.
   */
  oneTimeUrl(): string;
  /** Ids of the open tab sessions (for tests). */
  sessionIds(): string[];
  close(): Promise<void>;
}

/** Cookies are not scoped by port: the name carries this server's port, and only that name is read. */
const assetCookieName = (port: number) => `skillsmith_assets_${port}`;
const CODE = /^[A-Za-z0-9_-]{32}$/;
const MAX_BODY = 1024 * 1024;
const MAX_SESSIONS = 64;
const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/;

interface TabSession {
  readonly session: Session;
  readonly sockets: Set<WebSocket>;
  expiry: NodeJS.Timeout | undefined;
  lastUsed: number;
}

/**
 * The loopback host: the built renderer plus the handler table over HTTP (`POST
 * /rpc/<channel>`) and a WebSocket (`/events`) for event streams. Bound to 127.0.0.1
 * only. Every request must carry a Host header naming this server (no DNS rebinding),
 * this server's Origin when it has one, and the per-launch token: RPC in its header only,
 * the socket in its URL; the page in its URL, or a one-time code from `oneTimeUrl`
 * (`serve --open`) that the tab then exchanges for the token. The cookie the page sets
 * is named for this port and opens only the page and its static files — so a server on
 * another 127.0.0.1 port, which the browser sends it to, gets nothing it can replay.
 */
export async function startHost(options: HostOptions): Promise<Host> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  // What the cookie carries: it opens the page and its static files, never /rpc or /events —
  // a browser sends it to every port of 127.0.0.1, where another server could read it.
  const assetKey = randomBytes(24).toString('base64url');
  const codeTtlMs = options.codeTtlMs ?? 120_000;
  const codes = new Map<string, number>();
  const graceMs = options.sessionGraceMs ?? 30_000;
  const tabs = new Map<string, TabSession>();
  let port = 0;
  let firstScriptSent = false;

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const tokenOk = (candidate: string | undefined | null): boolean => sameSecret(candidate, tokenBytes);
  const assetKeyBytes = Buffer.from(assetKey);
  /** A live one-time code; `consume` spends it. */
  const codeOk = (candidate: string | null | undefined, consume: boolean): boolean => {
    if (!candidate || !CODE.test(candidate)) return false;
    const expires = codes.get(candidate);
    if (expires === undefined) return false;
    if (consume || Date.now() >= expires) codes.delete(candidate);
    return Date.now() < expires;
  };

  // The project a tab had open last: a new tab, or one whose session expired while it was
  // away, reopens it rather than the one the server started on.
  let lastProject = options.initialProject;
  /** The tab's session, made on its first request once the session module is loaded (`sessionClass`). */
  function tab(id: string, SessionClass: SessionClass): TabSession {
    let t = tabs.get(id);
    if (!t) {
      if (tabs.size >= MAX_SESSIONS) evictOldest();
      const sockets = new Set<WebSocket>();
      const session = new SessionClass(options.platform, (event, payload) => {
        const frame = JSON.stringify({ event, payload });
        for (const s of sockets) if (s.readyState === s.OPEN) s.send(frame);
      });
      t = { session, sockets, expiry: undefined, lastUsed: Date.now() };
      tabs.set(id, t);
      if (lastProject) {
        try {
          session.open(lastProject);
        } catch {
          // A vanished --project folder leaves the tab on the picker.
        }
      }
    }
    t.lastUsed = Date.now();
    if (t.expiry && t.sockets.size > 0) {
      clearTimeout(t.expiry);
      t.expiry = undefined;
    }
    return t;
  }
  function drop(id: string) {
    const t = tabs.get(id);
    if (!t) return;
    if (t.expiry) clearTimeout(t.expiry);
    for (const s of t.sockets) s.close();
    t.session.dispose();
    tabs.delete(id);
  }
  function evictOldest() {
    let oldest: [string, TabSession] | undefined;
    for (const e of tabs) if (!oldest || e[1].lastUsed < oldest[1].lastUsed) oldest = e;
    if (oldest) drop(oldest[0]);
  }
  function scheduleExpiry(id: string, t: TabSession) {
    if (t.expiry) clearTimeout(t.expiry);
    t.expiry = setTimeout(() => {
      if (t.sockets.size === 0) drop(id);
    }, graceMs);
    t.expiry.unref();
  }

  /** Host and Origin checks shared by HTTP and the socket upgrade; a reason when refused. */
  function refuseHeaders(req: IncomingMessage, requireOrigin: boolean): string | undefined {
    const host = req.headers.host;
    if (!host || !allowedHosts().has(host.toLowerCase())) return 'wrong Host header';
    const origin = req.headers.origin;
    if (origin === undefined) return requireOrigin ? 'missing Origin header' : undefined;
    if (!allowedOrigins().has(origin.toLowerCase())) return 'foreign Origin';
    return undefined;
  }

  /**
   * Who may do what: RPC takes the token from its header only; the event socket from its
   * URL (a browser cannot set a socket's headers); the page also from the URL or a one-time
   * code; the page and static files also from this port's cookie.
   */
  function authorised(req: IncomingMessage, url: URL, kind: 'rpc' | 'events' | 'document' | 'asset'): boolean {
    const header = req.headers['x-skillsmith-token'];
    if (typeof header === 'string' && tokenOk(header)) return true;
    if (kind === 'rpc') return false;
    if (kind !== 'asset' && tokenOk(url.searchParams.get('token'))) return true;
    if (kind === 'events') return false;
    if (kind === 'document' && codeOk(url.searchParams.get('code'), false)) return true;
    return sameSecret(readCookie(req.headers.cookie, assetCookieName(port)), assetKeyBytes);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refuseHeaders(req, false);
    if (refused) return text(res, 403, `forbidden: ${refused}`);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const isDocument = req.method === 'GET' && (url.pathname === '/' || url.pathname === '/index.html');
    if (url.pathname === '/session/exchange') return exchange(req, res);
    const kind = url.pathname.startsWith('/rpc/') ? 'rpc' : isDocument ? 'document' : 'asset';
    if (!authorised(req, url, kind)) {
      return text(res, 401, 'unauthorised: open the URL that `skillsmith serve` printed (it carries the access token)');
    }

    if (url.pathname.startsWith('/rpc/')) {
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        return text(res, 405, 'method not allowed');
      }
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return text(res, 415, 'expected application/json');
      const sessionId = req.headers['x-skillsmith-session'];
      if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId))
        return text(res, 400, 'missing or malformed x-skillsmith-session header');
      let body: unknown;
      try {
        body = JSON.parse((await readBody(req, MAX_BODY)) || '{}');
      } catch (e) {
        if (e instanceof BodyTooLarge) res.setHeader('connection', 'close');
        return text(
          res,
          e instanceof BodyTooLarge ? 413 : 400,
          e instanceof BodyTooLarge ? 'request body too large' : 'request body is not JSON',
        );
      }
      const [{ dispatch }, SessionClass] = await Promise.all([loadDispatch(), sessionClass()]);
      const t = tab(sessionId, SessionClass);
      const envelope = await dispatch(decodeURIComponent(url.pathname.slice('/rpc/'.length)), body, {
        session: t.session,
      });
      if (t.sockets.size === 0) scheduleExpiry(sessionId, t);
      lastProject = t.session.project?.root ?? lastProject;
      const json = JSON.stringify(envelope);
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      return void res.end(json);
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return text(res, 405, 'method not allowed');
    }
    const mapped = mapUrlPath(options.rendererDir, url.pathname);
    if (!mapped.ok) return text(res, mapped.status, mapped.status === 403 ? 'forbidden' : 'bad request');
    const found = await existingFileInside(options.rendererDir, mapped.file);
    if (!found.ok) return text(res, found.status, found.status === 403 ? 'forbidden' : 'not found');
    const headers: Record<string, string> = {
      'content-type': contentTypeFor(found.file),
      'content-length': String(found.size),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    };
    if (found.file.endsWith('.html')) {
      headers['content-security-policy'] = rendererCsp([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]);
      headers['x-frame-options'] = 'DENY';
      if (isDocument) headers['set-cookie'] = `${assetCookieName(port)}=${assetKey}; HttpOnly; SameSite=Strict; Path=/`;
    }
    res.writeHead(200, headers);
    if (req.method === 'HEAD') return void res.end();
    if (!firstScriptSent && found.file.endsWith('.js')) {
      firstScriptSent = true;
      // The browser now parses the script and the server is idle: load what its first call needs.
      res.once('finish', () =>
        setImmediate(() => void Promise.all([loadDispatch(), sessionClass()]).catch(() => undefined)),
      );
    }
    createReadStream(found.file)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  /** `POST /session/exchange` with `x-skillsmith-code`: spends a one-time code, answers the token. */
  function exchange(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return text(res, 405, 'method not allowed');
    }
    if (refuseHeaders(req, true)) return text(res, 403, 'forbidden: missing or foreign Origin');
    const code = req.headers['x-skillsmith-code'];
    if (typeof code !== 'string' || !codeOk(code, true)) {
      return text(res, 401, 'this link was already used or has expired — open the URL that `skillsmith serve` printed');
    }
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(JSON.stringify({ token }));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) text(res, 500, 'internal error');
      else res.destroy();
    });
  });

  // ws loads with the first socket, after the URL is printed; required, not import()ed: as an
  // ES module import, Node first scans ws's CommonJS sources for their exports (about 30 ms
  // of this thread, while the page waits for its first answers).
  let wss: WebSocketServer | undefined;
  const socketServer = () =>
    (wss ??= new (createRequire(__filename)('ws') as typeof import('ws')).WebSocketServer({
      noServer: true,
      maxPayload: 64 * 1024,
    }));
  server.on('upgrade', (req, socket, head) => {
    void upgrade(req, socket, head).catch(() => socket.destroy());
  });
  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const reject = (status: number, why: string) => {
      socket.end(`HTTP/1.1 ${status} ${why}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${why}\n`);
    };
    const refused = refuseHeaders(req, true);
    if (refused) return reject(403, `Forbidden: ${refused}`);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== '/events') return reject(404, 'Not Found');
    if (!authorised(req, url, 'events')) return reject(401, 'Unauthorized');
    const sessionId = url.searchParams.get('session');
    if (!sessionId || !SESSION_ID.test(sessionId)) return reject(400, 'Bad Request: session');
    const SessionClass = await sessionClass();
    socketServer().handleUpgrade(req, socket, head, (ws) => {
      const t = tab(sessionId, SessionClass);
      t.sockets.add(ws);
      if (t.expiry) {
        clearTimeout(t.expiry);
        t.expiry = undefined;
      }
      // The renderer sends nothing on this socket; anything it does send is ignored.
      ws.on('close', () => {
        t.sockets.delete(ws);
        if (t.sockets.size === 0 && tabs.get(sessionId) === t) scheduleExpiry(sessionId, t);
      });
      ws.on('error', () => ws.close());
    });
  }

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    oneTimeUrl: () => {
      const now = Date.now();
      for (const [c, expires] of codes) if (expires <= now) codes.delete(c);
      const code = randomBytes(24).toString('base64url');
      codes.set(code, now + codeTtlMs);
      return `${origin}/?code=${code}`;
    },
    sessionIds: () => [...tabs.keys()],
    close: () =>
      new Promise<void>((ok) => {
        for (const id of [...tabs.keys()]) drop(id);
        for (const c of wss?.clients ?? []) c.terminate();
        wss?.close();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

// The handler table and the session's services (and everything they reach, some 150 ms of
// module loading) load once the first script is on its way to the browser — while the
// page is parsed — or on the first call, never before the URL is printed.
let dispatchModule: Promise<typeof import('../ipc/dispatch')> | undefined;
const loadDispatch = () => (dispatchModule ??= import('../ipc/dispatch'));
type SessionClass = typeof Session;
let sessionModule: Promise<SessionClass> | undefined;
const sessionClass = () => (sessionModule ??= import('../ipc/session').then((m) => m.Session));

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(body + '\n');
}

function sameSecret(candidate: string | undefined | null, secret: Buffer): boolean {
  if (!candidate) return false;
  const b = Buffer.from(candidate);
  return b.length === secret.length && timingSafeEqual(b, secret);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        // Stop buffering; the caller answers 413 and the connection is closed after it.
        req.removeAllListeners('data');
        req.resume();
        fail(new BodyTooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}
