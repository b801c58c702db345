/**
 * Every screen (dashboard, editor, install, previews, Costs, Matrix, playground, Runs, Evals,
 * Settings) of an empty project and of one with 300 skills (there, also the editor and
 * previews opened on its first skill), at 1400 and 900 px, light and dark: nothing pushes
 * the page sideways (wide tables scroll inside their panel), the header keeps "Switch
 * project" on screen, an empty project's empty states each offer an action, and every
 * screen is saved to e2e/artifacts/ to be looked at.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../tests/cli/helpers';
import { repoRoot, requireOrSkip } from '../tests/support/paths';
import { haveChromium, launchChromium, screenshot, SIZES, watchedPage } from './support/browser';
import { startServe, type Served } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

const SCREENS: [name: string, hash: string, ready: string][] = [
  ['dashboard', '#/dashboard', '.dash-view[data-scan="fresh"]'],
  ['editor', '#/editor', '.ed-index'],
  ['previews', '#/previews', '.pv-view, .state-empty'],
  ['costs', '#/costs', '.cost-view, .state-empty'],
  ['matrix', '#/matrix', '.matrix-view, .state-empty'],
  ['install', '#/install', 'main.inst-view'],
  ['playground', '#/playground', 'main[aria-label="SkillSpec playground"]'],
  ['runs', '#/runs', 'main[aria-label="Runs"]'],
  ['evals', '#/evals', 'main[aria-label="Evals"]'],
  ['settings', '#/settings', '[data-testid="settings-view"]'],
];

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton'), null, {
    timeout: 60_000,
  });
}

describe.skipIf(!ok)('screens at 1400 and 900 px, light and dark, empty and 300 skills', () => {
  let dir: string;
  let browser: Browser;
  const served: Record<string, Served> = {};
  /** Per project, its screens: the 300-skill one adds the editor and previews on a skill. */
  const screens: Record<string, typeof SCREENS> = {};

  beforeAll(async () => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'skillsmith-screens-'));
    const generatorUrl = pathToFileURL(join(repoRoot, 'bench', 'generate.mjs')).href;
    const { generate } = (await import(generatorUrl)) as { generate(o: { out: string; count: number }): void };
    generate({ out: join(dir, 'skills-300'), count: 300 });
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'kitbash.toml'), '[project]\ntargets = ["claude-code", "agentsmd"]\n');
    const first = readdirSync(join(dir, 'skills-300', '.kitbash', 'skills')).sort()[0]!;
    screens['empty'] = SCREENS;
    screens['skills-300'] = [
      ...SCREENS,
      ['editor-skill', `#/editor/${first}`, '.monaco-editor'],
      ['previews-skill', `#/previews/${first}`, '.pv-tab'],
    ];
    for (const p of ['skills-300', 'empty'])
      served[p] = await startServe(['--project', join(dir, p)], { SKILLSMITH_DATA_DIR: join(dir, `data-${p}`) });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of Object.values(served)) expect(await s.stop()).toBe(0);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const project of ['empty', 'skills-300'])
    it(`${project}: no screen overflows the window, the header fits`, async () => {
      const problems: string[] = [];
      for (const colorScheme of ['light', 'dark'] as const)
        for (const { width, height } of SIZES) {
          const { page, context, errors } = await watchedPage(browser, { width, height, colorScheme });
          try {
            await page.goto(served[project]!.url);
            for (const [name, hash, ready] of screens[project]!) {
              await page.evaluate((h) => (window.location.hash = h), hash);
              await page.locator(ready).first().waitFor({ timeout: 60_000 });
              await settled(page);
              const where = `${project} ${name} ${width} ${colorScheme}`;
              const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
              if (over > 0) problems.push(`${where}: the page is ${over} px wider than the window`);
              // An empty project's screens each offer the next step, not only say what is missing.
              const bare = await page
                .locator('.state-empty:not(:has(.state-actions a, .state-actions button))')
                .count();
              if (project === 'empty' && bare > 0) problems.push(`${where}: an empty state offers no action`);
              const sw = await page.locator('[data-action="switch-project"]').boundingBox();
              if (!sw || sw.x + sw.width > width) problems.push(`${where}: Switch project is off screen`);
              await screenshot(page, `screens-${project}-${name}-${width}-${colorScheme}`, false);
            }
            expect(errors).toEqual([]);
          } finally {
            await context.close();
          }
        }
      expect(problems).toEqual([]);
    }, 420_000);
});
