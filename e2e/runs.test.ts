/**
 * The runs panel end to end in Chromium over `skillsmith serve`: a script that tries the
 * network with network = false fails, with the sandbox label shown before and after; live
 * output, exit status and duration; cancel; history from the audit log. A second server
 * whose bubblewrap cannot build a sandbox shows the refusal and the explicit one-time
 * override, which is never remembered.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit } from '../main/services/runs/audit';
import { probeBwrap } from '../main/services/sandbox/bwrap';
import { playProject, type PlayProject } from '../tests/play-runs/fixtures';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot } from './support/browser';
import type { Served } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());
const bwrap = await probeBwrap();
const sandboxOk = requireOrSkip(`bubblewrap (${bwrap.reason ?? 'ok'})`, bwrap.works);

const flat = async (page: Page, selector: string): Promise<string> =>
  (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim();

async function waitExit(page: Page): Promise<string> {
  await page.locator('[data-testid="exit"]').waitFor({ timeout: 30_000 });
  return flat(page, '[data-testid="exit"]');
}

describe.skipIf(!ok || !sandboxOk)('the runs panel in Chromium (bubblewrap works)', () => {
  let app: App<PlayProject>;
  let p: PlayProject;
  let served: Served;
  const open = () => app.open();

  beforeAll(async () => {
    app = await openApp(playProject);
    ({ project: p, served } = app);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 30_000);

  it('a script that tries the network with network = false fails, and the sandbox label is shown', async () => {
    const { page, errors, offHost } = await open();
    await page.goto(`${served.url}#/runs/net-probe`);
    await page.locator('[data-testid="plan"]').waitFor({ timeout: 20_000 });
    expect(await flat(page, '[data-testid="backend"]')).toMatch(/sandbox: bubblewrap .*works/);
    // Before it runs: the declared permission's row, its words and its label on this machine.
    const row = page.locator('[data-testid="plan"] tr[data-row="network"]');
    expect(await row.getAttribute('class')).toMatch(/declared/);
    expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/^network no network — .* enforced \(bubblewrap\)$/);
    expect(await flat(page, '[data-testid="plan"] .runs-cmd')).toMatch(/scripts\/fetch\.js$/);
    await screenshot(page, 'runs-plan-network');

    await page.getByTestId('run').click();
    expect(await waitExit(page)).toBe('exit 7');
    expect(await page.getByTestId('output').innerText()).toMatch(/network blocked: /);
    expect(await page.locator('[data-testid="output"] .stderr').count()).toBeGreaterThan(0);
    expect(await flat(page, '[data-testid="duration"]')).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    // The history comes from the audit log, with the labels the run was held to.
    await page.locator('[data-testid="history"] tbody tr').first().waitFor();
    expect(await flat(page, '[data-testid="history"] tbody tr')).toMatch(
      /net-probe scripts\/fetch\.js exit 7 .* bubblewrap/,
    );
    const audit = readAudit(p.project).filter((r) => r.skill === 'net-probe');
    expect(audit).toHaveLength(1);
    expect(audit[0]!.enforcement.network).toBe('enforced (bubblewrap)');
    await screenshot(page, 'runs-network-blocked');
    expect(errors).toEqual([]);
    expect(offHost).toEqual([]);
  });

  it('streams stdout and stderr, and shows the exit status', async () => {
    const { page, errors } = await open();
    await page.goto(`${served.url}#/runs/hello`);
    await page.locator('[data-testid="plan"]').waitFor({ timeout: 20_000 });
    await page.getByTestId('run').click();
    expect(await waitExit(page)).toBe('exit 3');
    expect(await page.locator('[data-testid="output"] .stdout').allInnerTexts()).toEqual(['hello from hello.sh\n']);
    expect(await page.locator('[data-testid="output"] .stderr').allInnerTexts()).toEqual(['to stderr\n']);
    expect(errors).toEqual([]);
  });

  it('shows output live while a run goes, and cancels it', async () => {
    const { page, errors } = await open();
    await page.goto(`${served.url}#/runs/slow`);
    await page.locator('[data-testid="plan"]').waitFor({ timeout: 20_000 });
    await page.getByTestId('run').click();
    await page.waitForFunction(
      () => /tick 3/.test(document.querySelector('[data-testid="output"]')?.textContent ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    expect(await flat(page, '[data-testid="status"]')).toMatch(/running · /);
    await screenshot(page, 'runs-live');
    await page.getByTestId('cancel').click();
    expect(await waitExit(page)).toBe('cancelled');
    const ticks = (await page.getByTestId('output').innerText()).match(/tick \d+/g)!.length;
    await page.waitForTimeout(600);
    expect((await page.getByTestId('output').innerText()).match(/tick \d+/g)!.length).toBe(ticks);
    expect(readAudit(p.project).find((r) => r.skill === 'slow')!.outcome).toBe('cancelled');
    expect(errors).toEqual([]);
  });

  it('runs a gate and shows its verdict', async () => {
    const { page, errors } = await open();
    await page.goto(`${served.url}#/runs/check-gate`);
    await page.locator('[data-testid="plan"]').waitFor({ timeout: 20_000 });
    expect(await page.getByLabel('Script').locator('option').allInnerTexts()).toEqual([
      'gate (verdict)',
      'scripts/gate.sh',
    ]);
    await page.getByLabel('Arguments').fill('nope');
    await page.waitForFunction(() =>
      /gate\.sh nope$/.test(document.querySelector('[data-testid="plan"] .runs-cmd')?.textContent ?? ''),
    );
    await page.getByTestId('run').click();
    expect(await waitExit(page)).toBe('exit 1 · verdict fail');
    expect(await page.locator('.runs-output').innerText()).toMatch(/the verdict script exited 1/);
    await screenshot(page, 'runs-gate-fail');
    expect(errors).toEqual([]);
  });

  it('refuses before running what the runner refuses: a script that is not there is not offered, a missing one is named', async () => {
    const { page } = await open();
    await page.goto(`${served.url}#/runs/hello`);
    await page.locator('[data-testid="plan"]').waitFor({ timeout: 20_000 });
    expect(await page.getByLabel('Script').locator('option').allInnerTexts()).toEqual(['scripts/hello.sh']);
    // The sandbox works here, so there is no override to offer.
    expect(await page.getByTestId('override').count()).toBe(0);
  });
});

describe.skipIf(!ok)('the runs panel where the sandbox cannot be built', () => {
  let app: App<PlayProject>;
  let p: PlayProject;
  let served: Served;

  beforeAll(async () => {
    app = await openApp(
      () => {
        const made = playProject();
        const fake = join(made.root, 'fake-bwrap');
        writeFileSync(fake, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
        chmodSync(fake, 0o755);
        return made;
      },
      { env: (made) => ({ SKILLSMITH_BWRAP: join(made.root, 'fake-bwrap') }) },
    );
    ({ project: p, served } = app);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 30_000);

  it('shows the refusal with every label, and runs once only through the explicit override, never remembered', async () => {
    const { page, errors } = await app.open();
    // On a timeout, keep what the page and the server showed.
    const refusalShown = async (shot: string): Promise<void> => {
      try {
        await page.getByTestId('refusal').waitFor({ timeout: 40_000 });
      } catch (e) {
        await screenshot(page, shot);
        throw new Error(
          `${(e as Error).message}\npage errors: ${errors.join(' | ')}\nserve said: ${served.output().slice(-2000)}`,
        );
      }
    };
    await page.goto(`${served.url}#/runs/hello`);
    await refusalShown('runs-refused-timeout');
    expect(await page.getByTestId('refusal').getAttribute('data-reason')).toBe('unenforced');
    expect(await flat(page, '[data-testid="refusal"] p')).toMatch(/cannot be enforced here/);
    expect(await flat(page, '[data-testid="refusal"] tr[data-row="network"]')).toMatch(/advisory — not enforced here/);
    // The app's words, not the command line's: no flag, the override named as its button, jargon explained.
    expect(await flat(page, '[data-testid="refusal"]')).not.toMatch(/(^|[\s(;])--[a-z]/);
    expect(await page.locator('[data-testid="refusal"] [data-term="advisory"]').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('run').isDisabled()).toBe(true);
    await screenshot(page, 'runs-refused');

    await page.getByTestId('override').click();
    const dialog = page.getByRole('dialog', { name: 'Run once without the sandbox' });
    await dialog.getByTestId('override-command').waitFor();
    expect(await flat(page, '[data-testid="override-command"]')).toMatch(/scripts\/hello\.sh$/);
    expect(await dialog.getByTestId('override-env').innerText()).toMatch(/^PATH=/m);
    const unheld = await dialog.getByTestId('override-unheld').locator('li').allInnerTexts();
    expect(unheld.map((u) => u.split(' — ')[0])).toEqual([
      'network',
      'unix-sockets',
      'filesystem',
      'reading',
      'skill-folder',
      'home',
      'environment',
      'processes',
      'limit-processes',
      'limit-files',
      'limit-cpu',
      'limit-memory',
      'limit-scratch',
      'privileges',
      'tools',
    ]);
    expect(await dialog.getByTestId('override-confirm').isDisabled()).toBe(true);
    await dialog.getByRole('checkbox').check();
    await screenshot(page, 'runs-override-dialog', false);
    await dialog.getByTestId('override-confirm').click();
    expect(await waitExit(page)).toBe('exit 3');
    expect(await page.locator('[data-testid="output"] .stdout').allInnerTexts()).toEqual(['hello from hello.sh\n']);
    await page.locator('[data-testid="history"] tr.override').waitFor({ timeout: 20_000 });
    expect(await flat(page, '[data-testid="history"] tr.override')).toMatch(/none \(run once without the sandbox\)/);
    const audit = readAudit(p.project).filter((r) => r.skill === 'hello');
    expect(audit.map((r) => [r.outcome, r.override])).toEqual([['exited', true]]);

    // Never remembered: a fresh look refuses again, and Run stays disabled.
    await page.reload();
    await refusalShown('runs-reload-timeout');
    expect(await page.getByTestId('run').isDisabled()).toBe(true);
    await screenshot(page, 'runs-override-done');
    expect(errors).toEqual([]);
  });
});
