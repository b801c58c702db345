/**
 * A discovery index served over HTTPS on 127.0.0.1 with a certificate made for the test
 * (trusted by the spawned CLI through NODE_EXTRA_CA_CERTS), and the archive bytes the tests
 * serve — written by hand here so that hostile entries (`..`, absolute paths, links, lying
 * sizes) can be made at all.
 */
import { afterAll, beforeAll } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { configDirForTests, skillsmithBin } from '../support/paths';

export interface Route {
  readonly body: Buffer | string;
  readonly type?: string;
  readonly status?: number;
  readonly headers?: Record<string, string>;
}

export interface Site {
  readonly origin: string;
  readonly ca: string;
  /** Every path asked for, in order. */
  readonly asked: string[];
  route(path: string, r: Route): void;
  close(): Promise<void>;
}

const dirs: string[] = [];
export function cleanupDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

export function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** An HTTPS server on 127.0.0.1 answering from a route table (404 for anything else). */
export async function serveSite(): Promise<Site> {
  const d = tempDir('skillsmith-wk-cert-');
  const key = join(d, 'key.pem');
  const cert = join(d, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const routes = new Map<string, Route>();
  const asked: string[] = [];
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const path = req.url ?? '/';
    asked.push(path);
    const r = routes.get(path);
    if (!r) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(r.status ?? 200, { ...(r.type ? { 'content-type': r.type } : {}), ...r.headers });
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    ca: cert,
    asked,
    route: (path, r) => void routes.set(path, r),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const INDEX_PATH = '/.well-known/agent-skills/index.json';
export const SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

export const digestOf = (b: Buffer | string): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built CLI, spawned without blocking (the server answers from this process), trusting the site's CA. */
export function skillsmith(cwd: string, ca: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [skillsmithBin, ...args],
      {
        cwd,
        env: {
          ...process.env,
          NODE_EXTRA_CA_CERTS: ca,
          SKILLSMITH_CACHE_DIR: tempDir('skillsmith-wk-cache-'),
          SKILLSMITH_CONFIG_DIR: configDirForTests(),
        },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

export const skillMd = (name: string, extra = ''): string =>
  `---\nname: ${name}\ndescription: Use when working on ${name}.\n---\n\n# ${name}\n\nDo the ${name} thing.\n${extra}`;

// ---- tar ----

export interface TarEntry {
  readonly name: string;
  readonly body?: Buffer | string;
  /** ustar type flag: '0' file (default), '5' folder, '2' symlink, '1' hard link, '3' character device. */
  readonly type?: string;
  readonly link?: string;
  readonly mode?: number;
}

function tarHeader(e: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (s: string, at: number, len: number) => h.write(s, at, len, 'utf8');
  const oct = (n: number, len: number) => `${n.toString(8).padStart(len - 1, '0')}\0`;
  put(e.name, 0, 100);
  put(oct(e.mode ?? (e.type === '5' ? 0o755 : 0o644), 8), 100, 8);
  put(oct(0, 8), 108, 8);
  put(oct(0, 8), 116, 8);
  put(oct(size, 12), 124, 12);
  put(oct(0, 12), 136, 12);
  put('        ', 148, 8);
  put(e.type ?? '0', 156, 1);
  put(e.link ?? '', 157, 100);
  put('ustar\u000000', 257, 8);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

/** A .tar.gz of exactly these entries, names as given (nothing is normalized). */
export function tarGz(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    parts.push(tarHeader(e, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

// ---- zip ----

export interface ZipEntry {
  readonly name: string;
  readonly body?: Buffer | string;
  /** Unix mode in the external attributes (0o120777 makes a symlink). */
  readonly mode?: number;
  /** The uncompressed size the headers claim (defaults to the real one). */
  readonly claim?: number;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A .zip of these entries, each deflated, made on a Unix host (so modes travel). */
export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const data = deflateRawSync(body);
    const name = Buffer.from(e.name);
    const size = e.claim ?? body.length;
    const crc = crc32(body);
    const l = Buffer.alloc(30);
    l.writeUInt32LE(0x04034b50, 0);
    l.writeUInt16LE(20, 4);
    l.writeUInt16LE(0x800, 6);
    l.writeUInt16LE(8, 8);
    l.writeUInt32LE(crc, 14);
    l.writeUInt32LE(data.length, 18);
    l.writeUInt32LE(size, 22);
    l.writeUInt16LE(name.length, 26);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE((3 << 8) | 20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x800, 8);
    c.writeUInt16LE(8, 10);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(data.length, 20);
    c.writeUInt32LE(size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(((e.mode ?? (e.name.endsWith('/') ? 0o40755 : 0o100644)) << 16) >>> 0, 38);
    c.writeUInt32LE(offset, 42);
    locals.push(l, name, data);
    central.push(c, name);
    offset += l.length + name.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The HTTPS site of one test file: served before its tests (when `ready`), closed and its folders removed after. */
export function siteForFile(ready: boolean): () => Site {
  let site: Site | undefined;
  beforeAll(async () => {
    if (ready) site = await serveSite();
  });
  afterAll(async () => {
    await site?.close();
    cleanupDirs();
  });
  return () => {
    if (!site) throw new Error('the test site is not served (the suite should have been skipped)');
    return site;
  };
}
