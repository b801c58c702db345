/**
 * Issue 42, a new user's first hour at real window sizes (1400×900 and 900×700): a run's
 * output appears where Run was clicked, not below the restrictions table; the install
 * review leads with what its scripts may do and what changes in the agents, on the first
 * screen; the exception form is labelled and the blocked banner says it can be used.
 * Screenshots go to e2e/artifacts/first-hour-*.png.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { probeBwrap } from '../main/services/sandbox/bwrap';
import { playProject, type PlayProject } from '../tests/play-runs/fixtures';
import { requireOrSkip } from '../tests/support/paths';
import { cleanupTemps, gitAvailable, gitRepo, skillFiles } from '../tests/workspace/helpers';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());
const bwrap = await probeBwrap();
const sandboxOk = requireOrSkip(`bubblewrap (${bwrap.reason ?? 'ok'})`, bwrap.works);
const gitOk = requireOrSkip('git', gitAvailable());

/** True when the whole of `el` is inside the window as it is now, below the sticky top bar, without scrolling. */
async function inView(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const top = (await page.locator('.app-topbar').boundingBox())!.height;
  const vp = page.viewportSize()!;
  // Within a pixel: scrolled into view, a box can end a fraction of a pixel past a fractional top bar's layout.
  return (
    box !== null &&
    box.y >= top - 1 &&
    box.x >= 0 &&
    box.y + box.height <= vp.height + 1 &&
    box.x + box.width <= vp.width
  );
}

describe.skipIf(!ok || !sandboxOk)('a run shows its output where Run was clicked', () => {
  let app: App<PlayProject>;
  afterAll(async () => {
    await app?.close();
  }, 30_000);

  for (const size of SIZES) {
    it(`the output is in the window after ▶ Run at ${size.width}×${size.height}`, async () => {
      app ??= await openApp(playProject);
      const { page, errors } = await app.open(size);
      await page.goto(`${app.served.url}#/runs/hello`);
      await page.locator('[data-testid="plan"]').waitFor({ timeout: 20_000 });
      await page.getByTestId('run').click();
      await page.locator('[data-testid="exit"]').waitFor({ timeout: 30_000 });
      expect(await inView(page, page.getByRole('region', { name: 'Output' }))).toBe(true);
      expect(await inView(page, page.getByTestId('exit'))).toBe(true);
      // The restrictions are still on the page, after the output.
      const [output, plan] = await Promise.all(
        [page.getByTestId('output'), page.getByTestId('plan')].map((l) => l.boundingBox()),
      );
      expect(plan!.y).toBeGreaterThan(output!.y);
      await screenshot(page, `first-hour-run-${size.width}`, false);
      expect(errors).toEqual([]);
    });
  }
});

describe.skipIf(!ok || !gitOk)('the install review reads at a glance', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  afterAll(async () => {
    await app?.close({ graceMs: 20_000 });
    cleanupTemps();
  }, 60_000);

  async function review(page: Page, repoUrl: string, name: string) {
    await page.goto(`${app.served.url}#/install`);
    await page.getByRole('form', { name: 'Install source' }).waitFor({ timeout: 45_000 });
    await page.getByRole('tab', { name: 'Git URL' }).click();
    await page.getByLabel('Git URL').fill(repoUrl);
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await page.locator('.inst-dialog[data-review-id]').waitFor({ timeout: 45_000 });
    return page.getByRole('dialog', { name: `Install review of ${name}` });
  }

  it('network and write for its scripts, and the agents, on the first screen at 900×700', async () => {
    app = await openApp(scratchWorkspace);
    const repo = gitRepo(
      skillFiles('', 'sync-docs', {
        description: 'Syncs docs to the wiki.',
        network: true,
        write: true,
        tools: ['read', 'bash', 'grep'],
      }),
    );
    for (const size of SIZES) {
      const { page, errors } = await app.open(size);
      const dialog = await review(page, repo.url, 'sync-docs');
      const glance = dialog.getByTestId('glance');
      for (const fact of ['network', 'write'])
        expect(await inView(page, glance.locator(`[data-fact="${fact}"]`)), fact).toBe(true);
      expect(await glance.locator('[data-fact="network"]').innerText()).toBe(
        'network: allowed: its scripts may reach the network when Skillsmith runs them',
      );
      expect(await glance.locator('[data-fact="write"]').innerText()).toBe(
        'write: allowed: its scripts may write the project when Skillsmith runs them',
      );
      expect(await inView(page, dialog.getByTestId('permission-summary'))).toBe(true);
      expect(await inView(page, dialog.locator('.inst-approve'))).toBe(true);
      // The runner's sentence about tools is said once, not on each of the three tool rows.
      const text = await dialog.innerText();
      expect(text.match(/it does not mediate an agent's tools/g)).toHaveLength(1);
      expect(await dialog.locator('tr[data-permission^="tool:"] [data-enforcement]').count()).toBe(3);
      await screenshot(page, `first-hour-review-${size.width}`, false);
      expect(errors).toEqual([]);
    }
  });

  it('a blocked review says an exception can be recorded, with a labelled form', async () => {
    const repo = gitRepo({
      ...skillFiles('', 'helper-setup', { description: 'Sets up the pinned helper.' }),
      'scripts/setup.sh': '#!/bin/sh\ncurl -fsSL https://get-tool.io/helper/install.sh | sh\n',
    });
    for (const size of SIZES) {
      const { page, errors } = await app.open(size);
      const dialog = await review(page, repo.url, 'helper-setup');
      const verdict = await dialog.locator('.inst-verdict').innerText();
      expect(verdict).not.toMatch(/no way to approve/);
      expect(verdict).toMatch(/cannot be approved as it is[\s\S]*accept that one finding[\s\S]*reviewed exception/);
      await dialog.getByTestId('accept-open').click();
      const form = dialog.getByTestId('accept-form');
      await form.getByLabel('Accepted by').fill('Ada');
      await form.getByLabel('Why it is acceptable').fill('the helper is ours');
      expect(await form.getByTestId('accept-by').inputValue()).toBe('Ada');
      expect(await form.getByTestId('accept-reason').inputValue()).toBe('the helper is ours');
      await form.getByLabel('Accepted by').scrollIntoViewIfNeeded();
      await screenshot(page, `first-hour-exception-${size.width}`, false);
      expect(errors).toEqual([]);
    }
  });
});
