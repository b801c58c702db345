/**
 * The install review shows the project's external scanners (SPEC D251) in Chromium over the
 * real `skillsmith serve`: which ran, each finding with its scanner and severity, a finding at
 * `[policy] block_scanner_findings` blocking, a lower one advisory. Screenshots at 1400×900
 * and 900×700 go to e2e/artifacts/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip, runCli } from '../tests/support/paths';
import { cleanupTemps, gitAvailable, gitRepo, skillFiles } from '../tests/workspace/helpers';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium()) && requireOrSkip('git', gitAvailable());
const FAKE = join(__dirname, '..', 'tests', 'cli', 'fixtures', 'fake-scanner.mjs');

async function review(page: Page, url: string, repoUrl: string): Promise<void> {
  await page.goto(`${url}#/install`);
  await page.getByRole('form', { name: 'Install source' }).waitFor({ timeout: 45_000 });
  await page.getByRole('tab', { name: 'Git URL' }).click();
  await page.getByLabel('Git URL').fill(repoUrl);
  await page.getByLabel('Git ref').fill('');
  await page.getByLabel('Path in repository').fill('');
  await page.getByRole('button', { name: 'Review', exact: true }).click();
  await page.locator('.inst-dialog[data-review-id]').waitFor({ timeout: 45_000 });
}

describe.skipIf(!ok)('external scanners in the install review', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  const configDir = (root: string) => join(root, 'user-config');

  beforeAll(async () => {
    app = await openApp(scratchWorkspace, { env: (p) => ({ SKILLSMITH_CONFIG_DIR: configDir(p.root) }) });
    const project = app.project.project;
    const toml = readFileSync(join(project, 'kitbash.toml'), 'utf8').replace(
      '[policy]\n',
      '[policy]\nblock_scanner_findings = "critical"\n',
    );
    const command = JSON.stringify([process.execPath, FAKE, 'ok', '{skill}']);
    writeFileSync(join(project, 'kitbash.toml'), `${toml}\n[scanners.fake]\ncommand = ${command}\n`);
    const c = runCli(['scanners', 'confirm', '--all'], {
      cwd: project,
      env: { SKILLSMITH_CONFIG_DIR: configDir(app.project.root) },
    });
    expect(c.code, c.stderr).toBe(0);
  });

  afterAll(async () => {
    for (const w of app?.pages ?? []) await w.context.close().catch(() => undefined);
    await app?.close({ graceMs: 20_000 });
    cleanupTemps();
  }, 90_000);

  for (const { width, height } of SIZES) {
    it(`a blocking and an advisory scanner finding, at ${width}×${height}`, async () => {
      const { page, errors } = await app.open({ width, height });
      const name = `scanned-${width}`;
      const repo = gitRepo({
        ...skillFiles('', name, { description: `The ${name} skill, scanned.` }),
        'scripts/run.sh': '#!/bin/sh\necho hello\n',
      });
      await review(page, app.served.url, repo.url);
      const dialog = page.getByRole('dialog', { name: `Install review of ${name}` });
      expect(await dialog.locator('[data-verdict]').getAttribute('data-verdict')).toBe('blocked');
      const panel = dialog.getByRole('region', { name: 'Scanners' });
      expect(await panel.locator('[data-scanner="fake"]').getAttribute('data-state')).toBe('ran');
      const blocking = panel.locator('[data-check="scanner:fake/fake.exec"]');
      expect(await blocking.getAttribute('data-status')).toBe('blocking');
      expect(await blocking.innerText()).toContain('runs a downloaded program');
      expect(await blocking.innerText()).toContain('scripts/run.sh:2');
      expect(await panel.locator('[data-check="scanner:fake/fake.style"]').getAttribute('data-status')).toBe(
        'advisory',
      );
      expect(await dialog.getByRole('button', { name: /approve/i }).count()).toBe(0);
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `scanner-findings-${width}`, false);
      expect(errors).toEqual([]);
    });
  }
});
