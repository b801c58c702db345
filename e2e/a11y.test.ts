/**
 * An axe-core scan of every screen (browser mode, real serve, the example workspace), in
 * light and dark: no moderate, serious or critical violation (a skip link with a target,
 * all content in landmarks, heading levels in order — issue 42). axe is evaluated through the
 * DevTools protocol, so the page's CSP (no inline scripts) stays as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { scan } from './support/axe';
import { openApp, type App } from './support/app';
import { haveChromium } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());
const SCREENS: [string, string, string][] = [
  ['dashboard', '#/dashboard', '[role="table"][aria-label="Installed skills"]'],
  ['editor index', '#/editor', 'form[aria-label="New skill"]'],
  ['editor', '#/editor/prereview', '.monaco-editor'],
  ['install', '#/install', 'main'],
  ['previews', '#/previews/prereview', 'main'],
  ['matrix', '#/matrix', 'main'],
  ['matrix explanation', '#/matrix/prereview%40cursor', '[data-testid="explain"]'],
  ['costs', '#/costs', 'main'],
  ['playground', '#/playground', 'main'],
  ['runs', '#/runs', 'main'],
  ['evals', '#/evals', 'main'],
  ['settings', '#/settings', '[data-testid="settings-view"]'],
];

describe.skipIf(!ok)('accessibility (axe-core)', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  });
  afterAll(async () => {
    await app?.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`every screen has no moderate-or-worse violation (${colorScheme})`, async () => {
      const { page } = await app.open({ colorScheme });
      await page.goto(app.served.url);
      const found: Record<string, string[]> = {};
      for (const [name, hash, ready] of SCREENS) {
        await page.evaluate((h) => (window.location.hash = h), hash);
        await page.locator(ready).first().waitFor({ timeout: 30_000 });
        // Let data-driven parts settle (skeletons replaced) and slide-ins finish (a drawer mid-animation
        // is half transparent: its colours are not the ones a reader sees; spinners loop for ever).
        await page.waitForFunction(
          () =>
            !document.querySelector('[aria-busy="true"], .skeleton') &&
            document
              .getAnimations()
              .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
          null,
          { timeout: 30_000 },
        );
        found[name] = await scan(page, 'moderate');
      }
      // The lock card's re-pin dialog (the install review inside a dialog).
      await page.evaluate(() => (window.location.hash = '#/dashboard'));
      await page.locator('[data-card="Lock"] [data-action="repin"]').click();
      await page.getByTestId('repin-dialog').locator('[data-verdict]').waitFor({ timeout: 30_000 });
      found['re-pin dialog'] = await scan(page, 'moderate');
      await page.keyboard.press('Escape');
      await page.getByTestId('repin-dialog').waitFor({ state: 'detached' });
      // The picker, too.
      await page.locator('[data-action="switch-project"]').click();
      await page.getByRole('heading', { name: 'Recent projects' }).waitFor();
      found.picker = await scan(page, 'moderate');
      expect(found).toEqual(
        Object.fromEntries([...SCREENS.map(([n]) => [n, []]), ['re-pin dialog', []], ['picker', []]]),
      );
    }, 180_000);
  }
});
