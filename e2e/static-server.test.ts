import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRequestPath, startStaticServer, type StaticServer } from './support/static-server';

/** A raw GET: the path is sent byte for byte, without the URL normalisation fetch applies. */
function rawGet(port: number, path: string, method = 'GET'): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('e2e static server', () => {
  let dir: string;
  let root: string;
  let server: StaticServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skillsmith-static-'));
    root = join(dir, 'root');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(root, 'assets', 'app.js'), 'export {};');
    writeFileSync(join(root, 'assets', 'app.css'), 'body{}');
    writeFileSync(join(root, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(root, 'assets', 'blob.bin'), 'x');
    writeFileSync(join(dir, 'secret.txt'), 'outside the root');
    symlinkSync(join(dir, 'secret.txt'), join(root, 'escape.txt'));
    server = await startStaticServer(root);
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds to 127.0.0.1 on a random port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('serves files with the right content types', async () => {
    const cases: Array<[string, string]> = [
      ['/', 'text/html; charset=utf-8'],
      ['/index.html?workspace=/tmp/x', 'text/html; charset=utf-8'],
      ['/assets/app.js', 'text/javascript; charset=utf-8'],
      ['/assets/app.css', 'text/css; charset=utf-8'],
      ['/assets/logo.svg', 'image/svg+xml'],
      ['/assets/blob.bin', 'application/octet-stream'],
    ];
    for (const [path, type] of cases) {
      const r = await rawGet(server.port, path);
      expect(r.status, path).toBe(200);
      expect(r.type, path).toBe(type);
    }
    expect((await rawGet(server.port, '/assets/app.js', 'HEAD')).body).toBe('');
  });

  it('answers 404 for missing files and 405 for other methods', async () => {
    expect((await rawGet(server.port, '/nope.js')).status).toBe(404);
    expect((await rawGet(server.port, '/index.html', 'POST')).status).toBe(405);
  });

  it('refuses path traversal in every spelling', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/..%5csecret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/index.html%00.js',
    ]) {
      const r = await rawGet(server.port, path);
      expect(r.status, path).toBe(403);
      expect(r.body, path).not.toContain('outside the root');
    }
    expect((await rawGet(server.port, '/%zz')).status).toBe(400);
  });

  it('refuses a symlink that leads out of the root', async () => {
    const r = await rawGet(server.port, '/escape.txt');
    expect(r.status).toBe(403);
    expect(r.body).not.toContain('outside the root');
  });

  it('maps request targets without touching the filesystem', () => {
    expect(resolveRequestPath('/srv/r', '/a/b.js?x=1')).toEqual({ ok: true, file: '/srv/r/a/b.js' });
    expect(resolveRequestPath('/srv/r', '/../r2/x')).toEqual({ ok: false, status: 403 });
    expect(resolveRequestPath('/srv/r', 'http://evil/x')).toEqual({ ok: false, status: 400 });
  });
});
