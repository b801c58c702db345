/**
 * Issue 42: the top bar names the open project's folder by its meaningful end. The path is
 * cut from the start, never inside its last folder, and the whole path is in the tooltip,
 * at 1400×900 and at 900×700. Screenshots go to e2e/artifacts/header-path-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

describe.skipIf(!ok)('the project path in the top bar', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  for (const { width, height } of SIZES) {
    it(`shows the last folders whole, and the full path on hover, at ${width}×${height}`, async () => {
      const { page, errors } = await app.open({ width, height });
      await page.goto(app.served.url);
      const path = page.locator('.app-project-path');
      await path.waitFor({ timeout: 30_000 });
      const root = app.project.project;
      expect(await path.getAttribute('title')).toBe(root);
      const shown = await path.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const tail = el.querySelector<HTMLElement>('.app-project-path-tail')!;
        const t = tail.getBoundingClientRect();
        const head = el.querySelector<HTMLElement>('.app-project-path-head')!;
        return {
          tail: tail.textContent,
          tailWhole: tail.scrollWidth <= tail.clientWidth + 1 && t.left >= box.left - 1 && t.right <= box.right + 1,
          headShown: head.clientWidth,
          text: el.textContent,
        };
      });
      // The project's folder whole, and some of its parents before it: `…e2e-XXXX/workspace`.
      expect(shown.tail).toBe(root.split('/').at(-1));
      expect(shown.tailWhole).toBe(true);
      expect(shown.headShown).toBeGreaterThan(60);
      expect(shown.text).toBe(root);
      await page.locator('[role="table"][aria-label="Installed skills"]').waitFor({ timeout: 30_000 });
      await screenshot(page, `header-path-${width}`, false);
      expect(errors).toEqual([]);
    });
  }
});
