import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startHost } from '../../host/server';
import { builtRendererDir } from '../../host/locate';
import { hostPlatform } from '../../host/platform';
import type { ProjectHandle } from '../../services/dashboard/hub';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { VERSION } from '../version';
import { CodedError } from '../../../shared/result';

const FLAGS = {
  project: { type: 'string' },
  port: { type: 'string' },
  open: { type: 'boolean' },
  example: { type: 'boolean' },
} as const;

export interface ServeHooks {
  /** Resolves when serving should stop; SIGINT/SIGTERM by default. */
  readonly stopped?: Promise<void>;
  /** The built renderer; SKILLSMITH_RENDERER_DIR, else out/renderer next to the bundled CLI. */
  readonly rendererDir?: string;
  /** Starts the browser for --open; spawns the platform's opener by default. */
  readonly launch?: (cmd: string, args: readonly string[]) => void;
}

/**
 * `skillsmith serve [--project DIR] [--example] [--port N] [--open]`: the app in a browser, over the
 * loopback host. `--example` opens the bundled example workspace when there is no last
 * project (what `npm start` does when it falls back to the browser). The first line of output is the URL with its
 * access token.
 */
export async function runServe(argv: readonly string[], io: CliIo, hooks: ServeHooks = {}): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length)
    throw new CodedError(
      'invalid-request',
      `unexpected argument "${positionals[0]}" — the project folder goes after --project`,
    );
  let port = 0;
  if (flags.port !== undefined) {
    port = Number(flags.port);
    if (!/^\d+$/.test(flags.port) || port > 65535)
      throw new CodedError('invalid-request', `--port ${flags.port}: expected a port number 0–65535`);
  }
  // Another build of the renderer (the e2e suites serve out/renderer-test, with its test hooks).
  const rendererDir = hooks.rendererDir ?? (process.env.SKILLSMITH_RENDERER_DIR || builtRendererDir());
  if (!rendererDir || !existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(
      `the app is not built (${rendererDir ?? 'out/renderer'}/index.html is missing) — run "npm run build" first`,
    );
  }
  const platform = hostPlatform({ version: VERSION });
  let project: string | undefined;
  if (flags.project !== undefined) {
    project = resolve(io.cwd, flags.project);
    if (!existsSync(project))
      throw new CodedError('invalid-request', `--project ${flags.project}: ${project} does not exist`);
    if (!statSync(project).isDirectory())
      throw new CodedError('invalid-request', `--project ${flags.project}: is a file, not a project folder`);
  } else if (existsSync(join(io.cwd, 'kitbash.toml')) || existsSync(join(io.cwd, '.kitbash'))) {
    project = io.cwd;
  } else {
    project = platform.recent.last() ?? (flags.example ? (platform.examplePath ?? undefined) : undefined);
  }

  let host;
  try {
    host = await startHost({
      rendererDir,
      platform,
      port,
      ...(project ? { initialProject: project } : {}),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(`port ${port} is already in use — pick another with --port, or omit it for a free one`);
    if (code === 'EACCES') throw new Error(`port ${port} needs privileges — use a port above 1023`);
    throw e;
  }
  io.out(`Skillsmith running at ${host.url}\n`);
  // The project's watchers and a warm-up scan start on the next turn, after the URL is out:
  // the scan runs on the dashboard's worker while the browser loads the page, so its first
  // dashboard request finds the result cached. The handle lives as long as the server.
  let warm: ProjectHandle | undefined;
  let stopping = false;
  setImmediate(() => {
    if (!project || stopping) return;
    // The tab's own request reports any problem (a folder gone since, a scan that fails).
    try {
      warm = platform.hub.acquire(project, () => undefined);
    } catch {
      return;
    }
    void warm.dashboard().catch(() => undefined);
  });
  io.out(project ? `project: ${project}\n` : 'no project yet: pick one in the browser\n');
  io.out('press Ctrl+C to stop\n');
  // Not host.url: the opener's argv is in the process list, and the URL lands in the
  // browser's history — a one-time code is useless there once the tab has spent it.
  if (flags.open) {
    const [cmd, args] = openerCommand(host.oneTimeUrl(), process.platform);
    (hooks.launch ?? ((c, a) => launchOpener(c, a, io)))(cmd, args);
  }
  await (hooks.stopped ?? untilSignal());
  stopping = true;
  await host.close();
  warm?.release();
  platform.hub.closeAll();
  return EXIT.ok;
}

function untilSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** The command that opens `url` in the user's browser on `platform`. */
export function openerCommand(url: string, platform: NodeJS.Platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

function launchOpener(cmd: string, args: readonly string[], io: CliIo): void {
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () =>
      io.err(`could not open a browser (${cmd} is not available) — open the URL above yourself\n`),
    );
    child.unref();
  } catch {
    io.err('could not open a browser — open the URL above yourself\n');
  }
}
