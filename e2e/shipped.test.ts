/**
 * Every other suite drives out/renderer-test (the shipped code plus its test hooks). This
 * one drives the renderer a user gets — out/renderer, what `serve` serves by default and
 * what `npm run dist` packages — so a fault only the production bundle has (a chunk, a
 * worker, a define left unset) cannot hide behind the test build.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

describe.skipIf(!ok)('the shipped renderer over `skillsmith serve`', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;

  beforeAll(async () => {
    app = await openApp(scratchWorkspace, {
      env: () => ({ SKILLSMITH_RENDERER_DIR: join(repoRoot, 'out', 'renderer') }),
    });
  });

  afterAll(async () => {
    const { code } = (await app?.close()) ?? {};
    expect(code).toBe(0);
  });

  it('shows the dashboard, then edits a skill in Monaco with its analysis worker', async () => {
    const { page, errors, offHost } = await app.open();
    await page.goto(app.served.url);
    await page.locator('[role="table"][aria-label="Installed skills"]').waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.querySelectorAll('.dash-tbody [role="row"]').length === 5, null, {
      timeout: 20_000,
    });

    await page.goto(`${app.served.url}#/editor/dependency-audit`);
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 30_000 });
    // The skill's blocking finding comes from the analysis worker, not from the server.
    await page.locator('.ed-problem[data-code="remote-exec"]').first().waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => '__skillsmithEditor' in window)).toBe(false);
    expect(errors).toEqual([]);
    expect(offHost).toEqual([]);
  });
});
