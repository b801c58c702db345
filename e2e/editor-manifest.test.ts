/**
 * Issue 42: a skill.toml with several mistakes shows all of them in the editor at once — two
 * syntax errors the TOML parser meets one after the other and a field out of range — each a
 * marker at its line and a row in the Problems list. Screenshot: e2e/artifacts/editor-manifest-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { editorShows, openEditor } from './support/editor';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

type Marker = { startLineNumber: number; message: string };
const markers = (page: Page): Promise<Marker[]> =>
  page.evaluate(() => window.__skillsmithEditor!.markers('skill.toml') as unknown as Marker[]);

async function replaceLine(page: Page, line: number, text: string): Promise<void> {
  await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 1), line);
  await page.keyboard.press('Control+l');
  await page.keyboard.insertText(`${text}\n`);
}

describe.skipIf(!ok)('every manifest problem at once', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  for (const { width, height } of SIZES) {
    it(`three mistakes, three markers, at ${width}×${height}`, async () => {
      const { page, errors } = await app.open({ width, height });
      await page.goto(app.served.url);
      await openEditor(page, 'release-notes', 'skill.toml');
      await editorShows(page, 'skill.toml');
      // name unquoted (line 2), a budget with two values (line 12), standing out of range (line 13).
      await replaceLine(page, 2, 'name = release-notes');
      await replaceLine(page, 12, 'budget = 1200 1200');
      await replaceLine(page, 13, 'standing = 4000');
      await expect
        .poll(async () => (await markers(page)).map((m) => m.startLineNumber).sort((a, b) => a - b), {
          timeout: 15_000,
        })
        .toEqual([2, 12, 13]);
      const messages = (await markers(page)).map((m) => m.message).sort();
      expect(messages[0]).toMatch(/^invalid TOML: /);
      expect(messages[1]).toMatch(/^invalid TOML: /);
      expect(messages[2]).toBe('invalid manifest: context.standing must be 0–500');
      await screenshot(page, `editor-manifest-${width}`, false);
      expect(errors).toEqual([]);
    });
  }
});
