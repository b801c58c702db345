/**
 * The loopback host's gatekeeping, with raw HTTP and WebSocket clients: 127.0.0.1 only,
 * the per-launch token on every request (RPC: header only), a port-bound cookie that
 * opens only static files, one-time codes for `serve --open`, Host and Origin checked,
 * the static files contained, and RPC + events carried for a tab session.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../main/host/server';
import { mapUrlPath } from '../../main/host/static';
import { scratch, testPlatform, type Scratch } from './helpers';

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(
  port: number,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Res> {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...opts.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

function socket(
  url: string,
  headers: Record<string, string>,
): Promise<{ ws: WebSocket; opened: boolean; status?: number }> {
  return new Promise((done) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => done({ ws, opened: true }));
    ws.once('unexpected-response', (_req, res) => done({ ws, opened: false, status: res.statusCode }));
    ws.once('error', () => done({ ws, opened: false }));
  });
}

let s: Scratch;
let renderer: string;
let host: Host;
const SESSION = 'tab-session-0001';

beforeAll(async () => {
  s = scratch();
  renderer = mkdtempSync(join(tmpdir(), 'skillsmith-renderer-'));
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'export {};');
  writeFileSync(join(s.dir, 'secret.txt'), 'outside');
  symlinkSync(join(s.dir, 'secret.txt'), join(renderer, 'leak.txt'));
  host = await startHost({
    rendererDir: renderer,
    platform: testPlatform(s.dataDir),
    initialProject: s.project,
    sessionGraceMs: 200,
  });
});

afterAll(async () => {
  await host?.close();
  s?.cleanup();
  rmSync(renderer, { recursive: true, force: true });
});

const auth = () => ({ 'x-skillsmith-token': host.token });
const rpc = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(host.port, `/rpc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-skillsmith-session': SESSION, ...auth(), ...headers },
    body: JSON.stringify(body),
  });

describe('loopback host', () => {
  it('binds 127.0.0.1 with a long random token in its URL', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    expect(host.url.endsWith(host.token)).toBe(true);
  });

  it('refuses every request without the token', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/rpc/app.info']) {
      const r = await raw(host.port, path);
      expect(r.status, path).toBe(401);
      expect(r.body).toMatch(/token/);
    }
    expect((await rpc('app.info', {}, { 'x-skillsmith-token': 'wrong' })).status).toBe(401);
    expect((await raw(host.port, '/?token=wrong')).status).toBe(401);
    // The query token opens the page only; it is not accepted on RPC or assets.
    expect((await raw(host.port, `/assets/app.js?token=${host.token}`)).status).toBe(401);
  });

  it('serves the page for the URL token with a strict CSP and an HttpOnly SameSite cookie, named for this port, that then opens the assets', async () => {
    const page = await raw(host.port, `/?token=${host.token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self';.*frame-ancestors 'none'/);
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(new RegExp(`^skillsmith_assets_${host.port}=`));
    // The cookie is not the token: whoever it leaks to learns nothing that opens /rpc.
    expect(cookie).not.toContain(host.token);
    const asset = await raw(host.port, '/assets/app.js', { headers: { cookie: cookie.split(';')[0]! } });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // A reload of the page (the token has left the address bar) opens with the cookie.
    expect((await raw(host.port, '/', { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(200);
  });

  it("refuses a cookie replayed against /rpc and the socket: its own, another port's, or the token as a cookie", async () => {
    const other = await startHost({ rendererDir: renderer, platform: testPlatform(s.dataDir) });
    try {
      const mine = String((await raw(host.port, `/?token=${host.token}`)).headers['set-cookie']).split(';')[0]!;
      const theirs = String((await raw(other.port, `/?token=${other.token}`)).headers['set-cookie']).split(';')[0]!;
      // What a browser sends to any 127.0.0.1 port: both cookies, which the other server can read.
      const jar = `${mine}; ${theirs}`;
      const noToken = { 'content-type': 'application/json', 'x-skillsmith-session': SESSION, cookie: jar };
      for (const h of [host, other]) {
        const r = await raw(h.port, '/rpc/app.info', { method: 'POST', headers: noToken, body: '{}' });
        expect(r.status, `rpc on ${h.port}`).toBe(401);
        const ws = await socket(`ws://127.0.0.1:${h.port}/events?session=${SESSION}`, {
          origin: h.origin,
          cookie: jar,
        });
        expect(ws, `socket on ${h.port}`).toMatchObject({ opened: false, status: 401 });
      }
      // Another port's cookie opens nothing here, not even the static files.
      expect((await raw(host.port, '/assets/app.js', { headers: { cookie: theirs } })).status).toBe(401);
      expect((await raw(host.port, '/', { headers: { cookie: theirs } })).status).toBe(401);
      expect(
        (
          await raw(host.port, '/assets/app.js', {
            headers: { cookie: theirs.replace(`_${other.port}=`, `_${host.port}=`) },
          })
        ).status,
      ).toBe(401);
      // The token itself as a cookie (what earlier versions set) no longer opens RPC.
      expect(
        (
          await raw(host.port, '/rpc/app.info', {
            method: 'POST',
            headers: { ...noToken, cookie: `skillsmith_token=${host.token}` },
            body: '{}',
          })
        ).status,
      ).toBe(401);
      // The header still does.
      expect((await rpc('app.info', {})).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('opens the page once for a one-time code, which the tab exchanges for the token once', async () => {
    const url = new URL(host.oneTimeUrl());
    const code = url.searchParams.get('code')!;
    expect(url.origin).toBe(host.origin);
    expect(url.href).not.toContain(host.token);
    expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const page = await raw(host.port, `/?code=${code}`);
    expect(page.status).toBe(200);
    const exchange = (c: string, headers: Record<string, string> = { origin: host.origin }) =>
      raw(host.port, '/session/exchange', { method: 'POST', headers: { 'x-skillsmith-code': c, ...headers } });
    // From a foreign page, or with no Origin: refused, and the code is not spent.
    expect((await exchange(code, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await exchange(code, {})).status).toBe(403);
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ token: host.token });
    // Spent: neither the exchange nor the page (the browser history's entry) opens again.
    const again = await exchange(code);
    expect(again.status).toBe(401);
    expect(again.body).toMatch(/already used or has expired/);
    expect((await raw(host.port, `/?code=${code}`)).status).toBe(401);
    // A code is not a token anywhere else.
    const fresh = new URL(host.oneTimeUrl()).searchParams.get('code')!;
    expect((await rpc('app.info', {}, { 'x-skillsmith-token': fresh })).status).toBe(401);
    expect((await raw(host.port, `/?token=${fresh}`)).status).toBe(401);
    expect((await exchange('x'.repeat(32))).status).toBe(401);
  });

  it('refuses a one-time code that was never used within its lifetime', async () => {
    const shortLived = await startHost({ rendererDir: renderer, platform: testPlatform(s.dataDir), codeTtlMs: 0 });
    try {
      const code = new URL(shortLived.oneTimeUrl()).searchParams.get('code')!;
      expect((await raw(shortLived.port, `/?code=${code}`)).status).toBe(401);
      expect(
        (
          await raw(shortLived.port, '/session/exchange', {
            method: 'POST',
            headers: { origin: shortLived.origin, 'x-skillsmith-code': code },
          })
        ).status,
      ).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

  it('refuses a foreign Origin and a foreign Host (DNS rebinding) even with the token', async () => {
    expect((await rpc('app.info', {}, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await rpc('app.info', {}, { origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403);
    expect((await rpc('app.info', {}, { origin: 'null' })).status).toBe(403);
    const rebound = await raw(host.port, `/?token=${host.token}`, { headers: { host: `evil.example:${host.port}` } });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/Host/);
    expect((await rpc('app.info', {}, { origin: host.origin })).status).toBe(200);
  });

  it('keeps static files inside the renderer folder', async () => {
    const cookie = String((await raw(host.port, `/?token=${host.token}`)).headers['set-cookie']).split(';')[0]!;
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/leak.txt',
      '/a%00b',
    ]) {
      const r = await raw(host.port, path, { headers: { cookie } });
      expect([400, 403, 404], path).toContain(r.status);
      expect(r.body).not.toContain('outside');
    }
    expect(mapUrlPath('/srv/r', '/x/../../etc/passwd')).toEqual({ ok: false, status: 403 });
    expect(mapUrlPath('/srv/r', '/assets/%5c..%5cx')).toEqual({ ok: false, status: 403 });
    expect(mapUrlPath('/srv/r', '/')).toEqual({ ok: true, file: '/srv/r/index.html' });
  });

  it('carries RPC calls: JSON only, a session id required, errors as envelopes', async () => {
    expect((await rpc('app.info', {}, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await rpc('app.info', {}, { 'x-skillsmith-session': 'x' })).status).toBe(400);
    expect((await raw(host.port, '/rpc/app.info', { headers: auth() })).status).toBe(405);
    const big = await raw(host.port, '/rpc/app.info', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-skillsmith-session': SESSION, ...auth() },
      body: 'x'.repeat(1024 * 1024 + 10),
    });
    expect(big.status).toBe(413);
    expect((await rpc('app.info', '{' as unknown as object, {})).status).toBe(200);
    const notJson = await raw(host.port, '/rpc/app.info', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-skillsmith-session': SESSION, ...auth() },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    const info = await rpc('app.info', {});
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toMatchObject({
      ok: true,
      value: { version: '0.0.0-test', capabilities: { pickFolder: false } },
    });
    // The tab starts on the --project folder.
    expect(JSON.parse((await rpc('project.current', {})).body)).toEqual({
      ok: true,
      value: { project: { root: s.project, name: 'workspace' } },
    });
    expect(JSON.parse((await rpc('project.open', { path: 'relative' })).body)).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    expect(JSON.parse((await rpc('nope.nope', {})).body)).toMatchObject({
      ok: false,
      error: { code: 'unknown-channel' },
    });
  });

  it('gives each tab its own session', async () => {
    await rpc('project.close', {}, { 'x-skillsmith-session': 'tab-session-A' });
    expect(
      JSON.parse((await rpc('project.current', {}, { 'x-skillsmith-session': 'tab-session-A' })).body).value.project,
    ).toBeNull();
    expect(
      JSON.parse((await rpc('project.current', {}, { 'x-skillsmith-session': 'tab-session-B' })).body).value.project,
    ).not.toBeNull();
  });

  it('accepts the event socket only with the token, this Origin and a session', async () => {
    const base = `ws://127.0.0.1:${host.port}/events`;
    const good = { origin: host.origin };
    const noToken = await socket(`${base}?session=${SESSION}`, good);
    expect(noToken).toMatchObject({ opened: false, status: 401 });
    const foreign = await socket(`${base}?session=${SESSION}&token=${host.token}`, { origin: 'http://evil.example' });
    expect(foreign).toMatchObject({ opened: false, status: 403 });
    const noOrigin = await socket(`${base}?session=${SESSION}&token=${host.token}`, {});
    expect(noOrigin).toMatchObject({ opened: false, status: 403 });
    const noSession = await socket(`${base}?token=${host.token}`, good);
    expect(noSession).toMatchObject({ opened: false, status: 400 });
    const ok = await socket(`${base}?session=${SESSION}&token=${host.token}`, good);
    expect(ok.opened).toBe(true);
    ok.ws.close();
  });

  it('pushes project.changed to the tab when a file of its project changes', async () => {
    const ws = await socket(`ws://127.0.0.1:${host.port}/events?session=watcher-tab-01&token=${host.token}`, {
      origin: host.origin,
    });
    expect(ws.opened).toBe(true);
    const first = await rpc('project.dashboard', {}, { 'x-skillsmith-session': 'watcher-tab-01' });
    expect(JSON.parse(first.body).value.skills).toHaveLength(5);
    const message = new Promise<{ event: string; payload: { root: string; paths: string[] } }>((done) =>
      ws.ws.once('message', (m) => done(JSON.parse(String(m)))),
    );
    writeFileSync(join(s.project, '.kitbash/skills/prereview/SKILL.md'), '# Prereview\n\nChanged.\n');
    const got = await message;
    expect(got.event).toBe('project.changed');
    expect(got.payload.root).toBe(s.project);
    expect(got.payload.paths).toContain('.kitbash/skills/prereview/SKILL.md');
    const after = JSON.parse(
      (await rpc('project.dashboard', {}, { 'x-skillsmith-session': 'watcher-tab-01' })).body,
    ).value;
    expect(after.skills.find((r: { dir: string }) => r.dir === 'prereview').lock).toBe('drift');
    ws.ws.close();
  });

  it('drops a tab session after its last socket closes', async () => {
    expect(host.sessionIds()).not.toContain('short-lived-01');
    const ws = await socket(`ws://127.0.0.1:${host.port}/events?session=short-lived-01&token=${host.token}`, {
      origin: host.origin,
    });
    await new Promise((r) => setTimeout(r, 400));
    // Held open by its socket past the grace period…
    expect(host.sessionIds()).toContain('short-lived-01');
    ws.ws.close();
    await new Promise((r) => setTimeout(r, 500));
    // …and dropped once the socket is gone for longer than it.
    expect(host.sessionIds()).not.toContain('short-lived-01');
  });
});
