/**
 * Issue 42, the shell a new user meets: every view has one visible h1 naming it (the
 * project's name in the top bar is not a heading), and Browse… in browser mode opens beside
 * the last project when that is inside the home folder, or on the home folder, whose empty
 * state says why it is empty. Screenshots go to e2e/artifacts/first-hour-*.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

const VIEWS: [string, string][] = [
  ['#/dashboard', 'Dashboard'],
  ['#/editor', 'Edit a skill'],
  ['#/editor/prereview', 'prereview'],
  ['#/install', 'Install a skill'],
  ['#/previews/prereview', 'Previews'],
  ['#/matrix', 'Compatibility matrix'],
  ['#/costs', 'Standing context cost per session'],
  ['#/playground', 'SkillSpec playground'],
  ['#/runs', 'Runs'],
  ['#/evals', 'Evals'],
  ['#/settings', 'Settings'],
];

async function openBrowse(page: Page, url: string) {
  await page.goto(url);
  await page.locator('[role="table"][aria-label="Installed skills"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-action="switch-project"]').click();
  await page.locator('[data-action="browse"]').click();
  const dialog = page.getByRole('dialog', { name: 'Choose a project folder' });
  await dialog.locator('[data-testid="folder-path"]:not(:text("…"))').waitFor();
  return dialog;
}

describe.skipIf(!ok)('one page heading per view', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  afterAll(async () => {
    await app?.close();
  });

  it('each view has exactly one h1, visible and naming it', async () => {
    app = await openApp(scratchWorkspace);
    const { page, errors } = await app.open({ width: 900, height: 700 });
    await page.goto(app.served.url);
    const seen: Record<string, string[]> = {};
    for (const [hash, title] of VIEWS) {
      await page.evaluate((h) => (window.location.hash = h), hash);
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor({ timeout: 30_000 });
      seen[hash] = await page.locator('h1').allInnerTexts();
      expect(await page.locator('h1').isVisible(), hash).toBe(true);
      if (hash === '#/dashboard' || hash === '#/settings')
        await screenshot(page, `first-hour-h1-${hash.slice(2)}`, false);
    }
    expect(seen).toEqual(Object.fromEntries(VIEWS.map(([h, t]) => [h, [t]])));
    expect(await page.locator('.app-project-name').innerText()).toBe('workspace');
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!ok)('Browse… opens on a folder that has folders', () => {
  const apps: App<ReturnType<typeof scratchWorkspace>>[] = [];
  const empty = mkdtempSync(join(tmpdir(), 'skillsmith-home-'));
  afterAll(async () => {
    for (const a of apps) await a.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('opens beside the last project, inside the home folder, and can go up', async () => {
    // The home folder is the temp folder: the project's parent is inside it, two levels down.
    const app = await openApp(scratchWorkspace, { env: () => ({ HOME: tmpdir() }) });
    apps.push(app);
    for (const size of SIZES) {
      const { page, errors } = await app.open(size);
      const dialog = await openBrowse(page, app.served.url);
      expect(await page.getByTestId('folder-path').innerText()).toBe(app.project.root);
      expect(await dialog.locator('.app-folder-item', { hasText: 'workspace' }).locator('.tag').innerText()).toBe(
        'project',
      );
      await screenshot(page, `first-hour-browse-${size.width}`, false);
      await dialog.getByRole('button', { name: 'Up one folder' }).click();
      await expect.poll(() => page.getByTestId('folder-path').innerText()).toBe(tmpdir());
      expect(errors).toEqual([]);
    }
  });

  it('outside the home folder it opens on home, and an empty home says why', async () => {
    const app = await openApp(scratchWorkspace, { env: () => ({ HOME: empty }) });
    apps.push(app);
    const { page, errors } = await app.open({ width: 900, height: 700 });
    const dialog = await openBrowse(page, app.served.url);
    expect(await page.getByTestId('folder-path').innerText()).toBe(empty);
    expect((await dialog.getByTestId('no-folders').innerText()).replace(/\s+/g, ' ')).toMatch(
      /^Your home folder has no sub-folders to show, and the picker lists only folders inside it\. Hidden folders .* are not listed\. Type the project's path in the field behind this dialog instead\.$/,
    );
    await screenshot(page, 'first-hour-browse-empty', false);
    expect(errors).toEqual([]);
  });
});
