/**
 * The Settings view end to end in Chromium over `skillsmith serve`, on a scratch copy of
 * the example workspace: reached from the dashboard's policy card, a policy value changed,
 * the effect on the installed skills reviewed before saving, then saved — and the file
 * keeps its comments, with only that value changed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

describe.skipIf(!ok)('the settings view in Chromium', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;

  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 30_000);

  for (const scheme of ['dark', 'light'] as const) {
    it(`changes max_budget after reviewing its effect, keeping comments (${scheme})`, async () => {
      const file = join(app.project.project, 'kitbash.toml');
      const before = readFileSync(file, 'utf8');
      const { page, errors, offHost } = await app.open({ colorScheme: scheme, width: 1400 });
      await page.goto(app.served.url);
      await page.locator('[data-action="open-settings"]').click();
      await page.getByTestId('settings-view').waitFor({ timeout: 20_000 });
      expect(page.url()).toMatch(/#\/settings$/);
      expect(await page.locator('input[data-target="claude-code"]').isChecked()).toBe(true);
      const budget = page.locator('input[data-field="max_budget"]');
      expect(await budget.inputValue()).toBe('2000');
      await budget.fill('1');
      await screenshot(page, `settings-form-${scheme}`);

      await page.locator('[data-action="settings-review"]').click();
      await page.getByTestId('settings-review').waitFor({ timeout: 20_000 });
      const diff = await page.getByTestId('settings-diff').innerText();
      expect(diff).toContain('-max_budget = 2000');
      expect(diff).toContain('+max_budget = 1');
      const blocked = page.locator('[data-testid="settings-effects"] li[data-change="blocked"]');
      expect(await blocked.count()).toBeGreaterThan(0);
      expect(await blocked.first().innerText()).toMatch(/exceeds max_budget 1/);
      expect(readFileSync(file, 'utf8')).toBe(before);
      await screenshot(page, `settings-review-${scheme}`);

      if (scheme === 'light') {
        await page.locator('[data-action="settings-save"]').click();
        await page.getByRole('status').filter({ hasText: 'Saved kitbash.toml.' }).waitFor({ timeout: 20_000 });
        const after = readFileSync(file, 'utf8');
        expect(after).toBe(before.replace('max_budget = 2000', 'max_budget = 1'));
        expect(after).toContain('# Team rules every installed skill must satisfy');
        // The form re-reads the saved file: nothing left to change. It does so after the notice,
        // so the review button is waited for rather than read at once (it raced on a busy machine).
        await page.locator('[data-action="settings-review"]:disabled').waitFor({ timeout: 20_000 });
        expect(await page.locator('input[data-field="max_budget"]').inputValue()).toBe('1');
      }
      expect(errors).toEqual([]);
      expect(offHost).toEqual([]);
    }, 90_000);
  }
});
