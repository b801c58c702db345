/**
 * The app at 1,000 skills (the generated benchmark project): the dashboard's table and the
 * matrix stay virtualised — a few dozen rows in the DOM however far they scroll — sorting,
 * filtering and search work over all of them; the cost chart draws the costliest skills and
 * groups the rest, in colours that come from the skill names; the install screen lists the
 * installed skills as a searchable window; tables keep their first column in view at 900 px;
 * and a later launch paints the last scan, marked, until the fresh one replaces it.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../tests/cli/helpers';
import { repoRoot, requireOrSkip } from '../tests/support/paths';
import { skillColor, TOP_SKILLS } from '../renderer/src/views/costs/chart';
import { targetById } from '../shared/targets/registry';
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
    await page.locator('[data-tile="skills"] .dash-tile-v').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-tile="skills"] .dash-tile-v').innerText()).toBe('1000');
    const rowCount = () => page.evaluate(() => document.querySelectorAll('.dash-tbody [role="row"]').length);
    const first = await rowCount();
    expect(first).toBeGreaterThan(5);
    expect(first).toBeLessThan(40);
    expect(await page.locator('.table-foot').innerText()).toMatch(/^1000 skills ·/);
    await screenshot(page, 'dashboard-1000');

    // Scroll to the very end: the last skill by name is rendered, the DOM did not grow.
    const names = await page.evaluate(async () => {
      const body = document.querySelector('.dash-tbody') as HTMLElement;
      body.scrollTop = body.scrollHeight;
      await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => requestAnimationFrame(r));
      return [...document.querySelectorAll('.dash-tbody [role="row"]')].map((r) => r.getAttribute('data-skill'));
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
    await page.evaluate(() => ((document.querySelector('.dash-tbody') as HTMLElement).scrollTop = 0));
    await page.waitForFunction(() =>
      document.querySelector('.dash-tbody [role="row"] .badge')?.classList.contains('fail'),
    );
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
      const links = page.locator('.ed-skill-link');
      await links.first().waitFor({ timeout: 60_000 });
      // Virtualised: a window of the 1,000 in the DOM, all of them counted and reachable.
      const inDom = await links.count();
      expect(inDom).toBeGreaterThan(5);
      expect(inDom).toBeLessThan(60);
      expect(await page.getByTestId('skill-count').innerText()).toBe('1000 skills');
      const dirs = await page.evaluate(async () => {
        const list = document.querySelector('.ed-skill-list')!.parentElement!;
        list.scrollTop = list.scrollHeight;
        await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => requestAnimationFrame(r));
        return [...document.querySelectorAll('.ed-skill-link')].map((l) => l.getAttribute('data-skill')!);
      });
      expect(dirs.length).toBeLessThan(60);
      const all = readdirSync(join(dir, 'project', '.kitbash', 'skills')).sort();
      expect(dirs).toContain(all.at(-1));
      const name = all[500]!;
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

  it('the install screen lists the 1,000 installed skills as a window, searchable', async () => {
    const { page, context, errors } = await watchedPage(browser);
    try {
      await page.goto(`${served.url}#/install`);
      const rows = page.locator('.inst-installed-row');
      await rows.first().waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('installed-count').innerText()).toBe('1000 skills');
      const inDom = await rows.count();
      expect(inDom).toBeGreaterThan(5);
      expect(inDom).toBeLessThan(60);
      await screenshot(page, 'scale-install', false);
      const all = readdirSync(join(dir, 'project', '.kitbash', 'skills')).sort();
      const name = all[700]!;
      await page.locator('.inst-installed').getByRole('searchbox', { name: 'Search skills' }).fill(name);
      await expect.poll(() => rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-skill')!))).toContain(name);
      const found = await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-skill')!));
      expect(found.every((d) => d.includes(name))).toBe(true);
      expect(await page.getByTestId('installed-count').innerText()).toBe(`${found.length} of 1000 skills`);
      await page.locator(`.inst-installed-row[data-skill="${name}"]`).getByRole('button', { name: 'Remove…' }).click();
      await expect
        .poll(() => page.evaluate(() => window.location.hash))
        .toBe(`#/install/${encodeURIComponent(`remove:${name}`)}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('charts the costliest skills per target and groups the rest, in colours from the names', async () => {
    const { page, context, errors } = await watchedPage(browser);
    try {
      await page.goto(`${served.url}#/costs`);
      await page.locator('.cost-chart .cost-row').first().waitFor({ timeout: 60_000 });
      // The project's own two targets by default; the test reads every target's chart.
      expect(await page.locator('.cost-chart[aria-label] .cost-row').count()).toBe(2);
      await page.getByRole('button', { name: /^All targets/ }).click();
      const rows = await page.locator('.cost-chart[aria-label] .cost-row').evaluateAll((rs) =>
        rs.map((r) => ({
          target: (r as HTMLElement).dataset.target!,
          total: Number((r as HTMLElement).dataset.total),
          segs: [...r.querySelectorAll<HTMLElement>('.cost-seg[data-skill]')].map((x) => ({
            skill: x.dataset.skill!,
            tokens: Number(x.dataset.tokens),
            color: x.style.background,
          })),
          others: [...r.querySelectorAll<HTMLElement>('.cost-seg[data-others]')].map((x) => ({
            count: Number(x.dataset.others),
            tokens: Number(x.dataset.tokens),
          })),
        })),
      );
      expect(rows).toHaveLength(11);
      for (const r of rows) {
        expect(r.segs.length).toBeLessThanOrEqual(TOP_SKILLS);
        expect(r.others).toHaveLength(1);
        expect(r.segs.reduce((n, x) => n + x.tokens, 0) + r.others[0]!.tokens).toBe(r.total);
        // A bounded always-loaded file (D221) is charged for the skills it holds, within its limit.
        const limit = targetById(r.target)!.alwaysLoaded[0]?.maxBytes;
        if (limit === undefined) expect(r.segs.length + r.others[0]!.count, r.target).toBeGreaterThan(900);
        // Each section's estimate rounds up: at most one token a skill over a quarter of the bytes.
        else expect(r.total, r.target).toBeLessThanOrEqual(limit / 4 + r.segs.length + r.others[0]!.count);
      }
      // The colour of a skill is its name's, wherever it is drawn (compared as the browser writes colours).
      for (const x of rows.flatMap((r) => r.segs)) {
        const want = await page.evaluate((c) => {
          const el = document.createElement('span');
          el.style.background = c;
          return el.style.background;
        }, skillColor(x.skill));
        expect(x.color, x.skill).toBe(want);
      }
      const legend = await page.locator('.cost-legend button.cost-legend-item').count();
      expect(legend).toBeGreaterThan(0);
      expect(legend).toBeLessThanOrEqual(2 * TOP_SKILLS);
      expect(await page.getByTestId('legend-others').innerText()).toBe(`${1000 - legend} others`);
      // The per-skill table lists all 1,000, a window of them in the DOM.
      expect(await page.locator('.table-foot', { hasText: 'skills' }).last().innerText()).toBe('1000 skills');
      expect(await page.locator('.cost-table tbody tr[data-skill]').count()).toBeLessThan(60);
      await screenshot(page, 'scale-costs', false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('keeps the first column in view at 900 px and cuts no number (skills, matrix, costs)', async () => {
    const { page, context, errors } = await watchedPage(browser, { width: 900, height: 900 });
    try {
      const fixedWhileScrolling = async (scroller: string, first: string) => {
        const at = () => page.evaluate((sel) => document.querySelector(sel)!.getBoundingClientRect().left, first);
        const before = await at();
        const moved = await page.evaluate((sel) => {
          const el = document.querySelector(sel) as HTMLElement;
          el.scrollLeft = 400;
          return el.scrollLeft;
        }, scroller);
        expect(moved, scroller).toBeGreaterThan(0);
        await page.waitForTimeout(100);
        expect(await at(), first).toBe(before);
      };
      const cut = (sel: string) =>
        page
          .locator(sel)
          .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''));

      await page.goto(served.url);
      await page.locator('.dash-tbody [role="row"]').first().waitFor({ timeout: 60_000 });
      expect(
        await cut(
          '.dash-tbody .dash-td.num, .dash-tbody .dash-td:has(.dash-meter), .dash-tbody .dash-td:has(.badge), .dash-tbody .dash-td.mono',
        ),
      ).toEqual([]);
      await fixedWhileScrolling('.dash-tbody', '.dash-tbody [role="row"] > :first-child');
      // The header moved with the rows.
      expect(await page.evaluate(() => document.querySelector('.dash-thead')!.scrollLeft)).toBe(400);
      await screenshot(page, 'scale-dashboard-900', false);

      await page.evaluate(() => (window.location.hash = '#/matrix'));
      await page.locator('.matrix-row[data-skill]').first().waitFor({ timeout: 60_000 });
      // Every target, so the grid is wider than the window (the choice carries over to the costs).
      await page.getByLabel('Filter by target').selectOption('all');
      await fixedWhileScrolling('.matrix-scroll', '.matrix-row[data-skill] .matrix-skill');
      await screenshot(page, 'scale-matrix-900', false);

      await page.evaluate(() => (window.location.hash = '#/costs'));
      await page.locator('.cost-table tbody tr[data-skill]').first().waitFor({ timeout: 60_000 });
      expect(await cut('.cost-table td, .cost-chart .bar-value')).toEqual([]);
      await fixedWhileScrolling('.cost-table-scroll', '.cost-table tbody tr[data-skill] th');
      await screenshot(page, 'scale-costs-900', false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the matrix keeps a window of rows and the keyboard reaches the last skill', async () => {
    const { page, context } = await watchedPage(browser);
    try {
      await page.goto(`${served.url}#/matrix`);
      await page.locator('.matrix-row[data-skill]').first().waitFor({ timeout: 60_000 });
      expect(await page.locator('.matrix-row[data-skill]').count()).toBeLessThan(60);
      await page.locator('.matrix-cell[tabindex="0"]').focus();
      await page.keyboard.press('PageDown');
      const last = (await page.evaluate(() => document.querySelector('.matrix-keys')?.textContent)) ?? '';
      expect(last).toMatch(/^1000 skills/);
      await expect
        .poll(() =>
          page.evaluate(() =>
            (document.activeElement as HTMLElement | null)?.closest('.matrix-row')?.getAttribute('aria-rowindex'),
          ),
        )
        .toBe('1001');
      expect(await page.locator('.matrix-row[data-skill]').count()).toBeLessThan(60);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a later launch paints the last scan, marked, and the fresh one replaces it', async () => {
    // The first launch's scan is kept in its data folder; a skill added while it is closed.
    const code = await served.stop();
    expect(code).toBe(0);
    const skills = join(dir, 'project', '.kitbash', 'skills');
    const model = readdirSync(skills)
      .sort()
      .find((d) => existsSync(join(skills, d, 'skill.toml')))!;
    cpSync(join(skills, model), join(skills, 'zz-added-later'), { recursive: true });
    const toml = join(skills, 'zz-added-later', 'skill.toml');
    writeFileSync(toml, readFileSync(toml, 'utf8').replace(`name = "${model}"`, 'name = "zz-added-later"'));
    served = await startServe(['--project', join(dir, 'project')], { SKILLSMITH_DATA_DIR: join(dir, 'data') });
    const { page, context, errors } = await watchedPage(browser);
    try {
      // Every state the page shows: the skill count and whether the scan is marked as kept or fresh.
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __seen: string[] }).__seen = seen;
        new MutationObserver(() => {
          const main = document.querySelector('.dash-view');
          const n = document.querySelector('[data-tile="skills"] .dash-tile-v')?.textContent;
          if (!main || !n) return;
          const note = document.querySelector('[data-testid="cached-note"]') !== null;
          const state = `${n}:${main.getAttribute('data-scan')}:${note ? 'note' : 'no-note'}`;
          if (seen.at(-1) !== state) seen.push(state);
        }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      });
      await page.goto(served.url);
      await page.locator('.dash-view[data-scan="fresh"]').waitFor({ timeout: 90_000 });
      const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
      expect(seen[0]).toBe('1000:cached:note');
      expect(seen.at(-1)).toBe('1001:fresh:no-note');
      // Never the kept scan without its mark, nor the fresh one with it.
      expect(seen.filter((x) => !['1000:cached:note', '1001:fresh:no-note'].includes(x))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
