import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { requireBuiltCli } from '../../tests/cli/helpers';
import { launchChromium, watchedPage, type Watched } from './browser';
import { startServe, TEST_RENDERER, type Served } from './serve';

/** A throwaway project for `serve`: `scratchWorkspace()`, `playProject()` or the like. */
export interface AppProject {
  readonly project: string;
  readonly dataDir: string;
  cleanup(): void;
}

export interface Closed {
  /** serve's exit code, or 'timeout' when it outlived `graceMs`. */
  readonly code: number | null | 'timeout';
  readonly browserMs: number;
  readonly stopMs: number;
}

export interface App<P extends AppProject> {
  readonly project: P;
  readonly served: Served;
  readonly browser: Browser;
  /** Every page opened with `open`, oldest first. */
  readonly pages: Watched[];
  /** A fresh watched page (see `watchedPage`), remembered in `pages`. */
  open(opts?: Parameters<typeof watchedPage>[1]): Promise<Watched>;
  /**
   * Close Chromium, stop serve and delete the project. With `graceMs`, a serve that is
   * still stopping after that long is left to its own 10 s kill and reported as 'timeout'.
   */
  close(opts?: { graceMs?: number }): Promise<Closed>;
}

/** The CLI and the renderer's test build must both be built (`npm run build`). */
export function requireBuiltApp(): void {
  requireBuiltCli();
  const index = join(TEST_RENDERER, 'index.html');
  if (!existsSync(index) || !readFileSync(index, 'utf8').includes('assets/'))
    throw new Error('out/renderer-test is not built: run `npm run build`');
}

/**
 * The app as an e2e suite sees it: check the build, make the project, start the real
 * `skillsmith serve --project` on it with a fresh data folder, and launch Chromium. If a
 * step fails, what was already started is stopped and the project deleted.
 */
export async function openApp<P extends AppProject>(
  make: () => P,
  opts: { env?: (project: P) => Record<string, string>; wrap?: readonly string[] } = {},
): Promise<App<P>> {
  requireBuiltApp();
  const project = make();
  let served: Served | undefined;
  try {
    served = await startServe(
      ['--project', project.project],
      { SKILLSMITH_DATA_DIR: project.dataDir, ...opts.env?.(project) },
      undefined,
      opts.wrap,
    );
    const browser = await launchChromium();
    const pages: Watched[] = [];
    const running = served;
    return {
      project,
      served: running,
      browser,
      pages,
      open: async (o = {}) => {
        const w = await watchedPage(browser, o);
        pages.push(w);
        return w;
      },
      close: async ({ graceMs } = {}) => {
        const t0 = Date.now();
        await browser.close();
        const t1 = Date.now();
        let timer: NodeJS.Timeout | undefined;
        const stopping = running.stop();
        const code =
          graceMs === undefined
            ? await stopping
            : await Promise.race([
                stopping,
                new Promise<'timeout'>((done) => (timer = setTimeout(() => done('timeout'), graceMs).unref())),
              ]);
        clearTimeout(timer);
        const stopMs = Date.now() - t1;
        project.cleanup();
        return { code, browserMs: t1 - t0, stopMs };
      },
    };
  } catch (e) {
    await served?.stop();
    project.cleanup();
    throw e;
  }
}
