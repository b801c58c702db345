/**
 * Runner approval in the app (SPEC.md "Evals", Runner approval), end to end in Chromium over
 * `skillsmith serve`: starting an eval run whose runner is not approved opens a dialog with
 * the CLI's grant summary; Escape and Cancel run nothing; "Approve and run" records the
 * approval in the per-user file and runs. A changed runner lists what changed, and an
 * approval clicked after kitbash.toml changed again is refused and shown anew.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBwrap } from '../main/services/sandbox/bwrap';
import { repoRoot, requireOrSkip, runCli } from '../tests/support/paths';
import { openApp, type App, type AppProject } from './support/app';
import { scan } from './support/axe';
import { haveChromium, SIZES } from './support/browser';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());
const bwrap = await probeBwrap();
const sandboxOk = requireOrSkip(`bubblewrap (${bwrap.reason ?? 'ok'})`, bwrap.works);

const RUNNER = `[evals.runners.stand-in]
command = ["./tools/stand-in-agent.mjs", "--format", "claude-code", "{task}"]
target = "claude-code"
timeout = 60
transcript = "claude-code"
read = ["tools"]
env = ["STAND_IN_TOKEN"]
network = true
`;

function setRunner(project: string, table: string): void {
  const file = join(project, 'kitbash.toml');
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.slice(0, text.indexOf('[evals.runners.stand-in]')) + table);
}

function exampleCopy(): AppProject {
  const root = mkdtempSync(join(tmpdir(), 'skillsmith-approve-e2e-'));
  const project = join(root, 'workspace');
  cpSync(join(repoRoot, 'examples/workspace'), project, { recursive: true, verbatimSymlinks: true });
  setRunner(project, RUNNER);
  return { project, dataDir: join(root, 'data'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const configOf = (project: string): string => join(dirname(project), 'config');
const approvals = (project: string): string => join(configOf(project), 'runner-approvals.json');
const runs = (project: string): string[] => {
  try {
    return readdirSync(join(project, '.kitbash/evals'));
  } catch {
    return [];
  }
};

/** Open the Evals view on prereview, one trial per eval and no baseline, and press Run evals. */
async function startRun(page: Page, url: string): Promise<void> {
  await page.goto(`${url}#/evals/prereview`);
  await page.getByRole('button', { name: 'Run evals' }).waitFor({ timeout: 20_000 });
  await page.getByLabel('Trials per eval').fill('1');
  await page.getByRole('checkbox', { name: /baseline/ }).uncheck();
  await page.getByRole('button', { name: 'Run evals' }).click();
}

const lines = async (page: Page, runner: string): Promise<string[]> =>
  page
    .getByRole('list', { name: `What ${runner} may do` })
    .getByRole('listitem')
    .allInnerTexts();

describe.skipIf(!ok || !sandboxOk)('runner approval in Chromium', () => {
  let app: App<AppProject>;
  beforeAll(async () => {
    app = await openApp(exampleCopy, { env: (p) => ({ SKILLSMITH_CONFIG_DIR: configOf(p.project) }) });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  }, 30_000);

  it('shows an unapproved runner with what it may do; Escape and Cancel run nothing', async () => {
    const project = app.project.project;
    // What the CLI prints on approving, from a config folder of its own: the app must show the same lines.
    const cli = runCli(['eval', '--approve-runner', 'stand-in'], {
      cwd: project,
      env: { SKILLSMITH_CONFIG_DIR: join(dirname(project), 'elsewhere') },
    });
    expect(cli.code, cli.stderr).toBe(0);
    const printed = cli.stdout
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim());

    for (const { width, height } of SIZES) {
      const { page, errors } = await app.open({ width, height });
      await startRun(page, app.served.url);
      const dialog = page.getByRole('dialog', { name: 'Approve runner stand-in?' });
      await dialog.waitFor();
      const shown = await lines(page, 'stand-in');
      expect(shown).toEqual(printed);
      expect(shown).toContain(`reads: ${join(project, 'tools')} (read-only)`);
      expect(shown).toContain('env: STAND_IN_TOKEN (passed from your environment)');
      expect(shown).toContain('network: on — it can reach any host');
      expect(await dialog.getByText('has not been approved in this project').count()).toBe(1);
      // The safe choice has the focus; Tab reaches the approval.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      await page.screenshot({ path: `/tmp/approve-${width}x${height}.png` });
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Approve and run');

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Run evals' }).click();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByTestId('evals-progress').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    }
    expect(runs(project)).toEqual([]);
    expect(existsSync(approvals(project))).toBe(false);
  }, 90_000);

  it('"Approve and run" records the approval and runs', async () => {
    const project = app.project.project;
    const { page, errors } = await app.open();
    await startRun(page, app.served.url);
    const dialog = page.getByRole('dialog', { name: 'Approve runner stand-in?' });
    await dialog.getByRole('button', { name: 'Approve and run' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByTestId('evals-progress')
      .getByText(/^done — \d+ trials?$/)
      .waitFor({ timeout: 60_000 });
    expect(runs(project)).toHaveLength(1);
    const file = JSON.parse(readFileSync(approvals(project), 'utf8')) as {
      approvals: Record<string, { runner: string; grant: { env: string[]; network: boolean } }>;
    };
    expect(Object.values(file.approvals)).toEqual([
      expect.objectContaining({ runner: 'stand-in', grant: expect.objectContaining({ env: ['STAND_IN_TOKEN'] }) }),
    ]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('a changed runner shows what changed; an approval after another edit is refused and asked anew', async () => {
    const project = app.project.project;
    setRunner(project, RUNNER.replace('env = ["STAND_IN_TOKEN"]', 'env = ["STAND_IN_TOKEN", "GITHUB_TOKEN"]'));
    const before = runs(project);
    const { page, errors } = await app.open({ width: 1400, height: 900 });
    await startRun(page, app.served.url);
    const dialog = page.getByRole('dialog', { name: 'Approve runner stand-in?' });
    await dialog.waitFor();
    expect(await dialog.getByText('changed since you approved it').count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Changes to stand-in' }).innerText()).toBe('env: + GITHUB_TOKEN');
    expect(await dialog.locator('li.changed').allInnerTexts()).toEqual([
      'env: GITHUB_TOKEN, STAND_IN_TOKEN (passed from your environment)',
    ]);
    await page.screenshot({ path: '/tmp/approve-changed-1400x900.png' });
    expect(await scan(page)).toEqual([]);
    // The warning colours in dark mode too.
    const dark = await app.open({ width: 1400, height: 900, colorScheme: 'dark' });
    await startRun(dark.page, app.served.url);
    await dark.page.getByRole('dialog', { name: 'Approve runner stand-in?' }).waitFor();
    await dark.page.screenshot({ path: '/tmp/approve-changed-dark-1400x900.png' });
    expect(await scan(dark.page)).toEqual([]);
    await dark.page.keyboard.press('Escape');
    await dark.page.context().close();
    expect(dark.errors).toEqual([]);

    // kitbash.toml edited again while the dialog shows the previous definition.
    setRunner(project, RUNNER.replace('network = true', 'network = false'));
    await dialog.getByRole('button', { name: 'Approve and run' }).click();
    const notice = page.getByTestId('runner-approval-notice');
    await notice.waitFor();
    expect(await notice.innerText()).toBe(
      'kitbash.toml: runner stand-in changed since it was shown for approval — nothing was approved; review it again: it is shown below as defined now.',
    );
    expect(await page.getByRole('list', { name: 'Changes to stand-in' }).innerText()).toBe('network: on → off');
    await page.screenshot({ path: '/tmp/approve-stale-1400x900.png' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(runs(project)).toEqual(before);
    expect(Object.keys(JSON.parse(readFileSync(approvals(project), 'utf8')).approvals)).toHaveLength(1);
    expect(errors).toEqual([]);
  }, 90_000);

  it("the editor's Run evals asks the same way, and Cancel stays in the editor", async () => {
    const project = app.project.project;
    const before = runs(project);
    const { page, errors } = await app.open();
    await page.goto(`${app.served.url}#/editor/prereview`);
    await page.getByTestId('editor-run-evals').click();
    const dialog = page.getByRole('dialog', { name: 'Approve runner stand-in?' });
    await dialog.waitFor({ timeout: 20_000 });
    expect(await lines(page, 'stand-in')).toContain('network: off');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/#\/editor\/prereview$/);
    expect(runs(project)).toEqual(before);
    expect(errors).toEqual([]);
  }, 60_000);
});
