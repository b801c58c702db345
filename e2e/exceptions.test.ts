/**
 * Spec D190/D191 in Chromium over `skillsmith serve`: an exception that arrived with the
 * project is shown in Settings as not confirmed and accepts nothing; Confirm records it for
 * this user (only), and the view then shows it as a reviewed exception like any other.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skillIntegrity } from '../main/services/lock/index';
import { exceptionToml } from '../shared/policy/exceptions';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

/** The example workspace as a clone would bring it: kitbash.toml already accepting dependency-audit's finding. */
function clonedWorkspace(): ReturnType<typeof scratchWorkspace> {
  const w = scratchWorkspace();
  const integrity = skillIntegrity(join(w.project, '.kitbash/skills/dependency-audit'));
  if (!integrity.ok) throw new Error(integrity.error.message);
  appendFileSync(
    join(w.project, 'kitbash.toml'),
    `\n${exceptionToml({ skill: 'dependency-audit', integrity: integrity.value, check: 'remote-exec', file: 'scripts/audit.sh', line: 5, by: 'mallory', reason: 'trust me' })}`,
  );
  return w;
}

describe.skipIf(!ok)('an exception that arrived with the project, in Settings', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  const configOf = (w: { root: string }) => join(w.root, 'config');

  beforeAll(async () => {
    app = await openApp(clonedWorkspace, { env: (w) => ({ SKILLSMITH_CONFIG_DIR: configOf(w) }) });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 30_000);

  it('is shown as not confirmed, and Confirm makes it a reviewed exception', async () => {
    for (const { width, height } of [...SIZES].reverse()) {
      const { page, errors, offHost } = await app.open({ width, height });
      await page.goto(app.served.url);
      await page.locator('[data-action="open-settings"]').click();
      await page.getByTestId('settings-view').waitFor({ timeout: 20_000 });
      const row = page.locator('[data-exception="0"]');
      await row.getByText('Arrived with the project, not confirmed by you').waitFor({ timeout: 20_000 });
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `exceptions-unconfirmed-${width}`, false);
      expect(errors).toEqual([]);
      expect(offHost).toEqual([]);
      if (width !== 1400) continue;

      await row.locator('[data-action="confirm-exception"]').click();
      await row.locator('[data-action="confirm-exception"]').waitFor({ state: 'detached', timeout: 20_000 });
      expect(await row.innerText()).not.toContain('not confirmed');
      await screenshot(page, `exceptions-confirmed-${width}`, false);
      const record = JSON.parse(readFileSync(join(configOf(app.project), 'exception-confirmations.json'), 'utf8')) as {
        confirmations: Record<string, { skill: string }>;
      };
      expect(Object.values(record.confirmations)).toEqual([expect.objectContaining({ skill: 'dependency-audit' })]);
      expect(errors).toEqual([]);
    }
  }, 120_000);
});
