/**
 * The desktop app in real Electron (Playwright `_electron`). It runs only where an
 * Electron binary exists — ELECTRON_OVERRIDE_DIST_PATH, or a finished download in
 * node_modules/electron/dist — and is otherwise reported as skipped.
 * SKILLSMITH_REQUIRE_ELECTRON=1 turns that skip into a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../tests/support/paths';
import { screenshot } from './support/browser';
import { scratchWorkspace } from './support/serve';

const { electronBinary } = createRequire(import.meta.url)(join(repoRoot, 'main/electron/launch.cjs')) as {
  electronBinary(): string | undefined;
};
const binary = electronBinary();
if (!binary) {
  const why = 'no Electron binary (set ELECTRON_OVERRIDE_DIST_PATH or install one into node_modules/electron/dist)';
  if (process.env.SKILLSMITH_REQUIRE_ELECTRON === '1')
    throw new Error(`Electron e2e: ${why}, and SKILLSMITH_REQUIRE_ELECTRON=1 forbids skipping`);
  process.stderr.write(`Electron e2e suite skipped: ${why}\n`);
}

describe.skipIf(!binary)('desktop app in Electron', () => {
  let app: ElectronApplication;
  let page: Page;
  let ws: ReturnType<typeof scratchWorkspace>;
  let home: string;

  beforeAll(async () => {
    ws = scratchWorkspace();
    home = mkdtempSync(join(tmpdir(), 'skillsmith-electron-home-'));
    const env = { ...process.env, HOME: home, SKILLSMITH_DATA_DIR: ws.dataDir } as Record<string, string>;
    delete env.ELECTRON_RUN_AS_NODE;
    app = await _electron.launch({
      executablePath: binary!,
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), join(repoRoot, 'out/main/index.js'), ws.project],
      cwd: repoRoot,
      env,
    });
    page = await app.firstWindow();
  });

  afterAll(async () => {
    await app?.close();
    ws?.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('opens the project on the dashboard from app://', async () => {
    await page.waitForFunction(() => document.querySelectorAll('.dash-tbody [role="row"]').length === 5, undefined, {
      timeout: 30_000,
    });
    expect(page.url()).toBe('app://skillsmith/index.html');
    expect(await page.locator('.app-project-name').innerText()).toBe('workspace');
    await screenshot(page, 'electron-dashboard');
  });

  it('exposes only the contract on window.skillsmith, and no Node', async () => {
    const probe = await page.evaluate(() => ({
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
      keys: Object.keys((window as unknown as { skillsmith: object }).skillsmith).sort(),
    }));
    expect(probe).toEqual({ require: 'undefined', process: 'undefined', keys: ['app', 'on', 'project', 'skills'] });
  });

  it('denies every permission request', async () => {
    const state = await page.evaluate(() =>
      navigator.permissions.query({ name: 'notifications' as PermissionName }).then((r) => r.state),
    );
    expect(state).toBe('denied');
    const geo = await page.evaluate(
      () =>
        new Promise<string>((done) =>
          navigator.geolocation.getCurrentPosition(
            () => done('granted'),
            (e) => done(`refused:${e.code}`),
            { timeout: 3000 },
          ),
        ),
    );
    expect(geo).toMatch(/^refused/);
  });

  it('denies new windows and navigation', async () => {
    const opened = await page.evaluate(() => window.open('https://evil.example/') === null);
    expect(opened).toBe(true);
    await page.evaluate(() => {
      window.location.href = 'https://evil.example/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe('app://skillsmith/index.html');
    expect(app.windows()).toHaveLength(1);
  });
});
