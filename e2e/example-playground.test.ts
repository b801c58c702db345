/**
 * Issue 42: the example workspace's Playground is not empty. prereview carries a SkillSpec
 * (examples/workspace/.kitbash/skills/prereview/skill.spec.yml), so the tab opens on it, and
 * what the user types changes the route. Screenshots: e2e/artifacts/example-playground-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

describe.skipIf(!ok)("the example workspace's Playground", () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  for (const { width, height } of SIZES) {
    it(`opens on prereview's contract and plays an input, at ${width}×${height}`, async () => {
      const { page, errors } = await app.open({ width, height });
      await page.goto(`${app.served.url}#/playground`);
      const input = page.getByLabel('What the user says');
      await input.waitFor({ timeout: 30_000 });
      expect((await page.locator('.play-file').innerText()).replace(/\s+/g, ' ')).toMatch(
        /\.kitbash\/skills\/prereview\/skill\.spec\.yml · 3 routes · 3 rules · 4 scenario tests/,
      );
      const route = () => page.locator('[data-testid="route"] .play-route-id').textContent();
      await expect.poll(route, { timeout: 10_000 }).toBe('full_review');
      await input.fill('quick check before I push');
      await expect.poll(route, { timeout: 10_000 }).toBe('quick_check');
      await screenshot(page, `example-playground-${width}`, false);
      expect(errors).toEqual([]);
    });
  }
});
