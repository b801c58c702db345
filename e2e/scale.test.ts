/**
 * The dashboard at 1,000 skills (the generated benchmark project): the table stays
 * virtualised — a few dozen rows in the DOM however far it scrolls — and sorting and
 * filtering work over all of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../tests/cli/helpers';
import { repoRoot, requireOrSkip } from '../tests/support/paths';
import { haveChromium, launchChromium, screenshot, watchedPage } from './support/browser';
import { startServe, type Served } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

describe.skipIf(!ok)('dashboard with 1,000 skills', () => {
  let dir: string;
  let served: Served;
  let browser: Browser;

  beforeAll(async () => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'skillsmith-scale-'));
    const generatorUrl = pathToFileURL(join(repoRoot, 'bench', 'generate.mjs')).href;
    const { generate } = (await import(generatorUrl)) as { generate(o: { out: string; count: number }): void };
    generate({ out: join(dir, 'project'), count: 1000 });
    served = await startServe(['--project', join(dir, 'project')], { SKILLSMITH_DATA_DIR: join(dir, 'data') });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    const code = await served?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(0);
  });

  it('renders a window of rows, scrolls to the last skill, sorts and filters all 1,000', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(served.url);
    await page.locator('[data-tile="skills"] .tile-v').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-tile="skills"] .tile-v').innerText()).toBe('1000');
    const rowCount = () => page.evaluate(() => document.querySelectorAll('.tbody [role="row"]').length);
    const first = await rowCount();
    expect(first).toBeGreaterThan(5);
    expect(first).toBeLessThan(40);
    expect(await page.locator('.table-foot').innerText()).toMatch(/^1000 skill\(s\)/);
    await screenshot(page, 'dashboard-1000');

    // Scroll to the very end: the last skill by name is rendered, the DOM did not grow.
    const names = await page.evaluate(async () => {
      const body = document.querySelector('.tbody') as HTMLElement;
      body.scrollTop = body.scrollHeight;
      await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => requestAnimationFrame(r));
      return [...document.querySelectorAll('.tbody [role="row"]')].map((r) => r.getAttribute('data-skill'));
    });
    expect(names.length).toBeLessThan(40);
    const allNames = await page.evaluate(async () => {
      const r = await fetch('/rpc/project.dashboard', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-skillsmith-token': sessionStorage.getItem('skillsmith.token')!,
          'x-skillsmith-session': sessionStorage.getItem('skillsmith.session')!,
        },
        body: '{}',
      });
      return ((await r.json()) as { value: { skills: { name: string }[] } }).value.skills
        .map((s) => s.name)
        .sort((a, b) => a.localeCompare(b));
    });
    expect(allNames).toHaveLength(1000);
    expect(names).toContain(allNames.at(-1));

    // Sort by lint: the failing skills come first. Filter to failing only: far fewer rows.
    await page.getByRole('button', { name: /^Lint/ }).click();
    await page.evaluate(() => ((document.querySelector('.tbody') as HTMLElement).scrollTop = 0));
    await page.waitForFunction(() => document.querySelector('.tbody [role="row"] .badge')?.classList.contains('fail'));
    await page.getByRole('button', { name: /^Failing/ }).click();
    const failing = Number((await page.getByRole('button', { name: /^Failing/ }).innerText()).replace(/\D/g, ''));
    expect(failing).toBeGreaterThan(0);
    expect(failing).toBeLessThan(200);
    await page.waitForFunction(
      (n) => document.querySelector('.table-foot')?.textContent?.startsWith(`${n} of 1000`),
      failing,
    );
    expect(errors).toEqual([]);
  });
  it('the editor list and the matrix search the 1,000 skills by name', async () => {
    const { page, context } = await watchedPage(browser);
    try {
      await page.goto(served.url);
      await page.evaluate(() => (window.location.hash = '#/editor'));
      const links = page.locator('.editor-skill-link');
      await links.first().waitFor({ timeout: 60_000 });
      expect(await links.count()).toBe(1000);
      const name = (await links.nth(500).getAttribute('data-skill'))!;
      await page.getByRole('searchbox', { name: 'Search skills' }).fill(name);
      const found = await links.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-skill')!));
      expect(found).toContain(name);
      expect(found.every((d) => d.includes(name))).toBe(true);
      expect(found.length).toBeLessThan(20);

      await page.evaluate(() => (window.location.hash = '#/matrix'));
      const search = page.getByRole('searchbox', { name: 'Search skills' });
      await search.waitFor({ timeout: 60_000 });
      await search.fill(name);
      await expect
        .poll(() =>
          page
            .locator('.matrix-view [data-skill]')
            .evaluateAll((rs) => [...new Set(rs.map((r) => r.getAttribute('data-skill')!))]),
        )
        .toContain(name);
      const rows = await page
        .locator('.matrix-view [data-skill]')
        .evaluateAll((rs) => [...new Set(rs.map((r) => r.getAttribute('data-skill')!))]);
      expect(rows.every((d) => d.includes(name))).toBe(true);
      await screenshot(page, 'scale-matrix-search', false);
    } finally {
      await context.close();
    }
  }, 180_000);
});
