/**
 * The app's install approval dialog lists what the skill can make each agent do (issue 38):
 * a bare skill's hooks and tool grants, per agent, with their exact commands, and says
 * which agents do not receive them. Screenshot in e2e/artifacts/.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { cleanupTemps, gitAvailable, gitRepo } from '../tests/workspace/helpers';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium()) && requireOrSkip('git', gitAvailable());

const GUARD = `---
name: guard
description: Guards the shell before each command.
allowed-tools: Bash(*), Write, WebFetch
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./scripts/check.sh --strict
---
# Guard

Check every shell command before it runs.
`;

describe.skipIf(!ok)('the install dialog shows the powers', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  afterAll(async () => {
    for (const w of app?.pages ?? []) await w.context.close().catch(() => undefined);
    await app?.close({ graceMs: 20_000 });
    cleanupTemps();
  }, 90_000);

  it('names each hook and tool grant per agent, and never says it declares nothing', async () => {
    app = await openApp(scratchWorkspace);
    const { page, errors } = await app.open({ height: 1400 });
    const repo = gitRepo({ 'guard/SKILL.md': GUARD });
    await page.goto(`${app.served.url}#/install`);
    await page.getByRole('form', { name: 'Install source' }).waitFor({ timeout: 45_000 });
    await page.getByRole('tab', { name: 'Git URL' }).click();
    await page.getByLabel('Git URL').fill(repo.url);
    await page.getByLabel('Git ref').fill('');
    await page.getByLabel('Path in repository').fill('guard');
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await page.locator('.inst-dialog[data-review-id]').waitFor({ timeout: 45_000 });
    const dialog = page.getByRole('dialog', { name: 'Install review of guard' });

    const powers = dialog.getByTestId('powers');
    const claude = powers.locator('.inst-powers-group').filter({ hasText: 'Claude Code' }).first();
    const hook = claude.locator('li[data-power="hooks"]');
    expect(await hook.getAttribute('data-status')).toBe('acts');
    expect(await hook.innerText()).toBe(
      'hook PreToolUse [Bash]: ./scripts/check.sh --strict — the agent runs it on that event',
    );
    expect(await claude.locator('li[data-power="allowed-tools"] code').allInnerTexts()).toEqual([
      'Bash(*)',
      'Write',
      'WebFetch',
    ]);
    expect(await dialog.getByTestId('declares-nothing').count()).toBe(0);
    // The tool rows say what compile delivers: Claude Code's SKILL.md keeps the author's list.
    expect(await dialog.locator('tr[data-permission="tool:WebFetch"] [data-field="agents"]').innerText()).toMatch(
      /native Claude Code: compile delivers the SKILL.md allowed-tools as written/i,
    );
    // Cursor's rule file does not carry them, and the dialog says so.
    const cursor = powers.locator('.inst-powers-group').filter({ hasText: 'Cursor' }).first();
    expect(await cursor.locator('li[data-power="hooks"]').getAttribute('data-status')).toBe('dropped');
    await screenshot(page, 'review-powers');
    // Blocked by the example workspace's max_budget (a bare skill's default budget is over it).
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(errors).toEqual([]);
  }, 240_000);
});
