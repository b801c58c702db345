/**
 * The compatibility matrix and the cost view in Chromium over `skillsmith serve`, on the
 * example workspace: the expected cells, reasons on hover and focus, filters, keyboard
 * navigation, the explanation of a cell, and the per-target cost chart.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace, type Served } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

/** The example workspace's grid (skills × the eleven targets in emit order): ✓ full, ◐ degraded, ✕ unsupported. */
const EXPECTED = {
  'api-style': '✓✓✓✓✓◐✓✓✕✓✓',
  // Its script pipes curl into sh: compile does not deliver it, so no agent gets it (not-delivered).
  'dependency-audit': '✕✕✕✕✕✕✕✕✕✕✕',
  // prereview tells the agent to run scripts/check.sh, which no rule-file target receives.
  prereview: '✓◐✓✓✓✓◐✓✕◐✓',
  'release-notes': '✓✓✓✓✓✓✓✓✕◐✓',
  'tidy-commits': '✓✓✓✓✓✓✓✓✕◐✓',
};
const TARGET_ORDER = [
  'claude-code',
  'cursor',
  'agents',
  'zed',
  'copilot',
  'cline',
  'windsurf',
  'gemini',
  'aider',
  'agentsmd',
  'agent-plugins',
];

/** The project's own targets (kitbash.toml: claude-code, cursor, agentsmd), in emit order. */
const OWN = ['claude-code', 'cursor', 'agentsmd'];
const ownCells = (g: Record<string, string>) =>
  Object.fromEntries(Object.entries(g).map(([k, v]) => [k, OWN.map((t) => [...v][TARGET_ORDER.indexOf(t)]).join('')]));

/** The report views: route, main element, a drawn row, and what the kept note calls their figures. */
const VIEWS = [
  ['#/costs', 'main.cost-view', '.cost-row', 'figures'],
  ['#/matrix', 'main.matrix-view', '.matrix-row[data-skill]', 'grades'],
] as const;

async function grid(page: Page): Promise<Record<string, string>> {
  return page
    .locator('.matrix-row[data-skill]')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((r) => [
          (r as HTMLElement).dataset.skill,
          [...r.querySelectorAll('.matrix-cell .matrix-mark')].map((m) => m.textContent).join(''),
        ]),
      ),
    );
}

const focused = (page: Page) =>
  page.evaluate(
    () =>
      `${(document.activeElement as HTMLElement)?.closest('.matrix-row')?.getAttribute('data-skill')}@${(document.activeElement as HTMLElement)?.dataset.target}`,
  );

describe.skipIf(!ok)('compatibility matrix and costs in Chromium', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  let served: Served;
  const open = () => app.open({ width: 1500, height: 960 });

  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
    ({ served } = app);
  });

  afterAll(async () => {
    await app?.close({ graceMs: 10_000 });
  }, 30_000);

  it('shows the expected cells for the example workspace, with reasons on hover and on focus', async () => {
    const { page, errors, offHost } = await open();
    await page.goto(`${served.url}#/matrix`);
    await page.getByRole('grid', { name: 'Compatibility matrix' }).waitFor({ timeout: 40_000 });
    const columns = () =>
      page
        .locator('[role="columnheader"][data-target]')
        .evaluateAll((hs) => hs.map((h) => (h as HTMLElement).dataset.target));
    // By default the project's own targets (kitbash.toml's), in emit order.
    expect(await columns()).toEqual(OWN);
    expect(await grid(page)).toEqual(ownCells(EXPECTED));
    await screenshot(page, 'matrix-own');
    // Every target on request; the choice is remembered for the project (a reload keeps it).
    await page.getByLabel('Filter by target').selectOption('all');
    await page.reload();
    await page.getByRole('grid', { name: 'Compatibility matrix' }).waitFor({ timeout: 40_000 });
    expect(await page.getByLabel('Filter by target').inputValue()).toBe('all');
    expect(await columns()).toEqual(TARGET_ORDER);
    expect(await grid(page)).toEqual(EXPECTED);
    // The active targets of the project are marked.
    expect(
      await page.locator('.matrix-head.active').evaluateAll((hs) => hs.map((h) => (h as HTMLElement).dataset.target)),
    ).toEqual(['claude-code', 'cursor', 'agentsmd']);
    await screenshot(page, 'matrix');

    // Hover: the cell's reasons.
    await page.locator('.matrix-row[data-skill="dependency-audit"] [data-target="aider"]').hover();
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    expect(await tip.innerText()).toMatch(
      /dependency-audit on aider[\s\S]*unsupported[\s\S]*not-delivered[\s\S]*aider-not-wired[\s\S]*missing-capability[\s\S]*eager-only/i,
    );
    await screenshot(page, 'matrix-hover', false);
    await page.mouse.move(5, 5);
    await tip.waitFor({ state: 'detached' });

    // Focus: one tab stop for the grid (roving tabindex); the focused cell shows its reasons too.
    expect(await page.locator('.matrix-cell[tabindex="0"]').count()).toBe(1);
    await page.locator('.matrix-row[data-skill="api-style"] [data-target="claude-code"]').focus();
    expect(await focused(page)).toBe('api-style@claude-code');
    expect(await page.getByRole('tooltip').innerText()).toMatch(/Delivered as authored/);
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('api-style@cline');
    expect(await page.getByRole('tooltip').innerText()).toMatch(/cline-lazy-only/);
    expect(await page.locator('.matrix-cell[tabindex="0"]').getAttribute('data-target')).toBe('cline');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    expect(await focused(page)).toBe('dependency-audit@copilot');
    await page.keyboard.press('End');
    expect(await focused(page)).toBe('dependency-audit@agent-plugins');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('dependency-audit@cursor');
    expect(await page.getByRole('tooltip').innerText()).toMatch(/requires "scripts" — cursor does not deliver it/);

    // Enter opens the explanation of that skill on that target (and the route names it).
    await page.keyboard.press('Enter');
    const explain = page.getByTestId('explain');
    await explain.waitFor();
    expect(new URL(page.url()).hash).toBe('#/matrix/dependency-audit%40cursor');
    expect(await explain.getByTestId('explain-status').innerText()).toMatch(/unsupported/i);
    expect(await explain.innerText()).toMatch(
      /Cursor[\s\S]*not-delivered[\s\S]*remote-exec[\s\S]*missing-capability[\s\S]*Standing \/ session[\s\S]*capabilities/i,
    );
    await page.waitForTimeout(300); // the drawer's slide-in
    await screenshot(page, 'matrix-explain');
    await page.keyboard.press('Escape');
    await explain.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    expect(offHost).toEqual([]);
  });

  it('says per agent where declared permissions hold when the agent runs the scripts (D200)', async () => {
    for (const size of SIZES) {
      const { page, errors } = await app.open(size);
      await page.goto(`${served.url}#/matrix`);
      const table = page.getByTestId('enforcement');
      await table.waitFor({ timeout: 40_000 });
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c as HTMLElement).innerText.trim())));
      // The project's own agents first; Claude Code's script guard holds network, write and reads.
      expect(rows[0]!.slice(0, 5)).toEqual([
        'claude-code · this project',
        'enforced in the agent',
        'enforced in the agent',
        'enforced in the agent',
        'advisory',
      ]);
      expect(rows[0]![5]).toMatch(/through skillsmith run/);
      expect(rows).toHaveLength(11);
      for (const r of rows.slice(1)) {
        expect(r.slice(1, 5)).toEqual(['advisory', 'advisory', 'advisory', 'advisory']);
        expect(r[5]).toMatch(/with its own rights/);
      }
      // Nothing is cut off at either size: the table fits its panel.
      expect(await table.locator('.matrix-held-scroll').evaluate((d) => d.scrollWidth <= d.clientWidth + 1)).toBe(true);
      // Every cell gives its reason.
      expect(await table.locator('td[title=""]').count()).toBe(0);
      expect(await table.locator('tbody tr').nth(1).locator('td').first().getAttribute('title')).toMatch(/.{30,}/);
      await table.scrollIntoViewIfNeeded();
      await screenshot(page, `matrix-enforcement-${size.width}`, false);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('filters by status and by target, and a click opens the explanation', async () => {
    const { page, errors } = await open();
    await page.goto(`${served.url}#/matrix`);
    await page.getByRole('grid').waitFor({ timeout: 40_000 });
    await page.getByLabel('Filter by target').selectOption('all');
    await page
      .getByRole('group', { name: 'Filter by status' })
      .getByRole('button', { name: /^Unsupported/ })
      .click();
    // Every skill is unsupported on aider (its config does not read CONVENTIONS.md), so every row stays;
    // dependency-audit is not delivered at all, so it is unsupported everywhere.
    expect(Object.keys(await grid(page))).toHaveLength(5);
    expect(await page.locator('.matrix-cell.unsupported:not(.dim)').count()).toBe(4 + 11);
    expect(
      await page
        .locator('.matrix-row:not([data-skill="dependency-audit"]) .matrix-cell:not(.dim)')
        .evaluateAll((cs) => [...new Set(cs.map((c) => (c as HTMLElement).dataset.target))]),
    ).toEqual(['aider']);

    await page
      .getByRole('group', { name: 'Filter by status' })
      .getByRole('button', { name: /^Degraded/ })
      .click();
    expect(Object.keys(await grid(page))).toEqual(['api-style', 'prereview', 'release-notes', 'tidy-commits']);
    await page.getByLabel('Filter by target').selectOption('cursor');
    expect(await grid(page)).toEqual({ prereview: '◐' });
    await page.getByLabel('Filter by target').selectOption('claude-code');
    expect(await page.getByTestId('matrix-empty').innerText()).toMatch(/No skill has a degraded cell/);
    await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: /^All/ }).click();
    await page.getByLabel('Filter by target').selectOption('active');
    expect(await grid(page)).toEqual({
      'api-style': '✓✓✓',
      'dependency-audit': '✕✕✕',
      prereview: '✓◐◐',
      'release-notes': '✓✓◐',
      'tidy-commits': '✓✓◐',
    });
    await screenshot(page, 'matrix-filtered');

    await page.locator('.matrix-row[data-skill="prereview"] [data-target="agentsmd"]').click();
    const explain = page.getByTestId('explain');
    await explain.waitFor();
    expect(await explain.innerText()).toMatch(
      /prereview[\s\S]*agentsmd[\s\S]*eager-only[\s\S]*loads everything eagerly/,
    );
    await explain.getByRole('button', { name: /Preview prereview/ }).click();
    await page.locator('.pv-tab[data-target="agentsmd"]').waitFor({ timeout: 40_000 });
    expect(new URL(page.url()).hash).toBe('#/previews/prereview');
    expect(errors).toEqual([]);
  });

  it('charts the standing cost per target for the project and per skill', async () => {
    const { page, errors } = await open();
    await page.goto(`${served.url}#/costs`);
    await page
      .locator('.cost-row')
      .first()
      .waitFor({ timeout: 40_000 })
      .catch(async (e: unknown) => {
        await screenshot(page, 'costs-debug');
        throw new Error(
          `${String(e)}\npage: ${(await page.locator('body').innerText()).slice(0, 400)}\nerrors: ${errors.join(' | ')}`,
        );
      });
    const chartRows = () =>
      page
        .locator('.cost-chart[aria-label] .cost-row')
        .evaluateAll((rs) =>
          rs.map((r) => ({ t: (r as HTMLElement).dataset.target, n: Number((r as HTMLElement).dataset.total) })),
        );
    // By default the project's own targets; all of them on request.
    expect((await chartRows()).map((r) => r.t)).toEqual(OWN);
    await screenshot(page, 'costs-own');
    await page.getByRole('button', { name: /^All targets/ }).click();
    const rows = await chartRows();
    expect(rows.map((r) => r.t)).toEqual(TARGET_ORDER);
    const total = Object.fromEntries(rows.map((r) => [r.t, r.n]));
    // Lazy targets pay descriptions; the eager ones (agentsmd, aider, cline) pay whole texts.
    expect(total.agentsmd).toBeGreaterThan(total['claude-code']! * 3);
    expect(total['claude-code']).toBeGreaterThan(0);
    // The project total is the sum of the per-skill cells, per target.
    const cells = await page
      .locator('.cost-table tbody td[data-target="agentsmd"]')
      .evaluateAll((tds) => tds.map((t) => Number((t as HTMLElement).dataset.tokens)));
    expect(cells).toHaveLength(5);
    expect(cells.reduce((a, b) => a + b, 0)).toBe(total.agentsmd);
    await screenshot(page, 'costs');

    await page.getByRole('button', { name: /^This project's/ }).click();
    expect(
      await page
        .locator('.cost-chart[aria-label] .cost-row')
        .evaluateAll((rs) => rs.map((r) => (r as HTMLElement).dataset.target)),
    ).toEqual(['claude-code', 'cursor', 'agentsmd']);
    await page.locator('.cost-legend-item', { hasText: 'prereview' }).click();
    const card = page.getByTestId('skill-cost');
    await card.waitFor();
    expect(await card.innerText()).toMatch(/What adopting prereview costs/);
    expect(new URL(page.url()).hash).toBe('#/costs/prereview');
    await screenshot(page, 'costs-skill');
    expect(errors).toEqual([]);
  });

  it('paints the kept Costs and Matrix reports at once, marked, and the fresh ones replace them', async () => {
    // The first visit computes each report in main, which keeps it in serve's data folder.
    const first = await open();
    for (const [hash, view, row] of VIEWS) {
      await first.page.goto(`${served.url}${hash}`);
      await first.page.locator(`${view}[data-report="fresh"] ${row}`).first().waitFor({ timeout: 40_000 });
    }
    // A later visit whose fresh reports are held back: the kept ones are drawn meanwhile.
    const { page, context, errors } = await open();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    for (const channel of ['reports.costs', 'reports.matrix'])
      await context.route(`**/rpc/${channel}`, async (route) => {
        await held;
        await route.continue();
      });
    for (const [hash, view, row, what] of VIEWS) {
      await page.goto(`${served.url}${hash}`);
      const note = page.getByTestId('kept-note');
      await note.waitFor({ timeout: 40_000 });
      expect(await note.innerText()).toMatch(new RegExp(`^Not current yet\\. These ${what} are from .*, kept from`));
      expect(await page.locator(view).getAttribute('data-report')).toBe('cached');
      expect(await page.locator(view).getAttribute('aria-busy')).toBe('true');
      expect(await page.locator(`${view} ${row}`).count()).toBeGreaterThan(0);
      await screenshot(page, `${hash.slice(2)}-kept`);
    }
    const keptGrid = await grid(page);
    expect(Object.keys(keptGrid).sort()).toEqual(Object.keys(EXPECTED).sort());
    release();
    for (const [hash, view, row] of VIEWS) {
      await page.goto(`${served.url}${hash}`);
      await page.locator(`${view}[data-report="fresh"] ${row}`).first().waitFor({ timeout: 40_000 });
      expect(await page.getByTestId('kept-note').count()).toBe(0);
    }
    // The fresh grid is the one the kept grid showed (nothing changed on disk).
    expect(await grid(page)).toEqual(keptGrid);
    expect(errors).toEqual([]);
  });

  it('follows the OS dark theme (matrix and previews)', async () => {
    const w = await app.open({ width: 1500, height: 960, colorScheme: 'dark' });
    const { page, errors } = w;
    await page.goto(`${served.url}#/matrix`);
    await page.getByRole('grid').waitFor({ timeout: 40_000 });
    expect(
      await page
        .locator('.matrix-cell.full')
        .first()
        .evaluate((c) => getComputedStyle(c).backgroundColor),
    ).toBe('rgb(18, 41, 31)');
    await screenshot(page, 'matrix-dark');
    await page.evaluate(() => (window.location.hash = '#/previews/dependency-audit'));
    await page.locator('.pv-tab').nth(2).waitFor({ timeout: 40_000 });
    await screenshot(page, 'previews-dark');
    expect(errors).toEqual([]);
  });
});
