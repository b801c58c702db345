/**
 * Loopback fixtures for the marketplace suites: bare git repositories served over git's
 * smart HTTP protocol (`git http-backend` run as CGI; shallow clones need it), marketplace.json files
 * and hostile answers (redirects, oversized bodies) from the same 127.0.0.1 server, and
 * the built CLI run asynchronously so the server keeps answering while it fetches.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { configDirForTests, skillsmithBin } from '../support/paths';
import { gitRun, temp, write, type Files } from '../workspace/helpers';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface Loopback {
  readonly base: string;
  /** Serve `body` (or run `route`) at `path`. */
  route(path: string, route: Route | string): void;
  /** A bare repository `<name>.git` holding `files` in one commit; its URL, that commit, and a way to push another. */
  repo(name: string, files: Files): { url: string; commit: string; push(files: Files): string };
  close(): Promise<void>;
}

export async function loopback(): Promise<Loopback> {
  const root = temp('skillsmith-serve-');
  const routes = new Map<string, Route>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const r = routes.get(path);
    if (r) return r(req, res);
    if (/^\/[\w-]+\.git\//.test(path)) return httpBackend(root, path, req, res);
    const file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    route(path, route) {
      routes.set(
        path,
        typeof route === 'string'
          ? (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(route)
          : route,
      );
    },
    repo(name, files) {
      const work = temp('skillsmith-work-');
      const bare = join(root, `${name}.git`);
      gitRun(root, 'init', '--quiet', '--bare', bare);
      gitRun(work, 'init', '--quiet');
      const push = (f: Files): string => {
        write(work, f);
        gitRun(work, 'add', '-A');
        gitRun(work, 'commit', '--quiet', '-m', 'change');
        gitRun(work, 'push', '--quiet', bare, 'HEAD:refs/heads/main');
        gitRun(bare, 'update-server-info');
        return gitRun(work, 'rev-parse', 'HEAD');
      };
      const commit = push(files);
      gitRun(bare, 'symbolic-ref', 'HEAD', 'refs/heads/main');
      gitRun(bare, 'update-server-info');
      return { url: `${base}/${name}.git`, commit, push };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One request through `git http-backend` as a CGI program. */
function httpBackend(root: string, path: string, req: IncomingMessage, res: ServerResponse): void {
  const cgi = spawn('git', ['http-backend'], {
    env: {
      ...process.env,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: path,
      QUERY_STRING: new URL(req.url ?? '/', 'http://x').search.slice(1),
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  req.pipe(cgi.stdin);
  let head = Buffer.alloc(0);
  let started = false;
  cgi.stdout.on('data', (d: Buffer) => {
    if (started) return void res.write(d);
    head = Buffer.concat([head, d]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    started = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const i = line.indexOf(':');
      const k = line.slice(0, i).trim();
      const v = line.slice(i + 1).trim();
      if (k.toLowerCase() === 'status') status = Number.parseInt(v, 10);
      else res.setHeader(k, v);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  cgi.once('close', () => res.end());
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built CLI (bin/skillsmith.cjs), run without blocking this process (the server lives here). */
export function runBuilt(cwd: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [skillsmithBin, ...args], {
      cwd,
      env: {
        ...process.env,
        SKILLSMITH_CONFIG_DIR: configDirForTests(),
        SKILLSMITH_CACHE_DIR: join(configDirForTests(), 'cache'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A bare SKILL.md skill. */
export const skillMd = (name: string, body = `Do the ${name} thing carefully.`): string =>
  `---\nname: ${name}\ndescription: Use when working on ${name}.\n---\n\n# ${name}\n\n${body}\n`;

/** A project compiling for Claude Code and Codex-style AGENTS readers. */
export function project(): string {
  const p = temp('skillsmith-mkt-');
  write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n', '.claude/.keep': '' });
  return p;
}
