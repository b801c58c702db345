/**
 * Browser mode remembers the last project (README, "npm run web"): a new tab, or a tab back
 * after its session expired, opens the project a tab had open last — not the one serve was
 * started on — and the next `skillsmith serve` with no project opens it too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium } from './support/browser';
import { scratchWorkspace, startServe } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

const projectName = (page: Page) => page.locator('.app-project-name').innerText({ timeout: 20_000 });

describe.skipIf(!ok)('browser mode remembers the last project', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a new tab and the next serve open the project switched to, not the one serve started on', async () => {
    const other = mkdtempSync(join(app.project.root, 'other-'));
    writeFileSync(join(other, 'kitbash.toml'), '[project]\ntargets = ["claude-code"]\n');

    const first = await app.open();
    await first.page.goto(app.served.url);
    expect(await projectName(first.page)).toBe('workspace');
    await first.page.getByRole('button', { name: 'Switch project' }).click();
    await first.page.getByLabel('Folder path').fill(other);
    await first.page.getByRole('button', { name: 'Open', exact: true }).click();
    await first.page.getByRole('heading', { name: 'No skills installed yet' }).waitFor();

    // Another tab of the same server: its own session, opened on the last project.
    const second = await app.open();
    await second.page.goto(app.served.url);
    expect(await projectName(second.page)).toBe(other.split('/').pop());

    // The next launch without a project (npm run web from the repository) opens it as well.
    const again = await startServe([], { SKILLSMITH_DATA_DIR: app.project.dataDir });
    try {
      await expect.poll(() => again.output()).toContain(`project: ${other}`);
      const third = await app.open();
      await third.page.goto(again.url);
      expect(await projectName(third.page)).toBe(other.split('/').pop());
      expect([...first.errors, ...second.errors, ...third.errors]).toEqual([]);
    } finally {
      await again.stop();
    }
  });
});
