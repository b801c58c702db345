/**
 * The Evals view end to end in Chromium over `skillsmith serve`, on a copy of the example
 * workspace (whose stand-in runner imitates Claude Code's headless mode): run prereview's
 * evals with a baseline, read the grid (pass rates, the baseline effect, trigger
 * precision/recall), open a trial's transcript, workspace diff and assertions, see the
 * history; then cancel a run that would never finish.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBwrap } from '../main/services/sandbox/bwrap';
import { repoRoot, requireOrSkip, runCli } from '../tests/support/paths';
import { repinSkill } from '../tests/sandbox/helpers';
import { openApp, type App, type AppProject } from './support/app';
import { haveChromium, screenshot } from './support/browser';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());
const bwrap = await probeBwrap();
const sandboxOk = requireOrSkip(`bubblewrap (${bwrap.reason ?? 'ok'})`, bwrap.works);

const configEnv = (root: string): Record<string, string> => ({ SKILLSMITH_CONFIG_DIR: join(root, 'config') });

function exampleCopy(): AppProject {
  const root = mkdtempSync(join(tmpdir(), 'skillsmith-evals-e2e-'));
  const project = join(root, 'workspace');
  cpSync(join(repoRoot, 'examples/workspace'), project, { recursive: true, verbatimSymlinks: true });
  // A skill whose only eval never finishes, for cancel.
  const sleepy = join(project, '.kitbash/skills/sleepy');
  mkdirSync(join(sleepy, 'evals'), { recursive: true });
  writeFileSync(
    join(sleepy, 'SKILL.md'),
    '---\nname: sleepy\ndescription: A skill whose eval makes the stand-in agent wait forever\n---\n# Sleepy\n',
  );
  writeFileSync(join(sleepy, 'evals/wait.eval.yaml'), 'tier: behavioral\ntask: "[sleep]"\nassert:\n  - exit_code: 0\n');
  // Pinned as an install would: eval refuses a skill kitbash.lock does not pin.
  repinSkill(project, 'sleepy');
  // The stand-in runner approved as a user would, into this suite's own config folder.
  const approved = runCli(['eval', '--approve-runner', 'stand-in'], { cwd: project, env: configEnv(root) });
  if (approved.code !== 0) throw new Error(approved.stderr);
  return { project, dataDir: join(root, 'data'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const flat = async (page: Page, selector: string): Promise<string> =>
  (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim();

describe.skipIf(!ok || !sandboxOk)('the Evals view in Chromium', () => {
  let app: App<AppProject>;
  beforeAll(async () => {
    app = await openApp(exampleCopy, { env: (p) => configEnv(dirname(p.project)) });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  }, 30_000);

  it("runs prereview's evals with a baseline and shows pass rates, the effect and a trial", async () => {
    const { page, errors } = await app.open();
    await page.goto(`${app.served.url}#/evals/prereview`);
    await page.locator('table.evals-grid').waitFor({ timeout: 20_000 });
    expect(await page.locator('table.evals-grid tbody tr').count()).toBe(2);
    expect(await flat(page, 'table.evals-grid tbody tr:first-child')).toContain('not run');
    await page.getByRole('button', { name: 'Run evals' }).click();
    await page
      .getByTestId('evals-progress')
      .getByText(/^done — 10 trials$/)
      .waitFor({ timeout: 60_000 });

    const review = page.locator('[data-cell="review/stand-in"]');
    expect((await review.innerText()).replace(/\s+/g, ' ')).toMatch(
      /^✓ 100% \(≥ 100%\) baseline 0% · effect \+100% \[\+\d+%, \+100%\] triggered 100%$/,
    );
    expect((await page.locator('[data-cell="trigger/stand-in"]').innerText()).replace(/\s+/g, ' ')).toBe(
      '✓ 100% (≥ 100%) precision 100% · recall 100%',
    );
    await screenshot(page, 'evals-grid');

    await review.click();
    const detail = page.getByTestId('trial-detail');
    await detail.waitFor();
    expect(await flat(page, '[aria-label="Assertions"]')).toContain('pass artifact 3/3 trials');
    const transcript = page.getByRole('list', { name: 'Transcript' });
    expect(await transcript.innerText()).toMatch(/⚙ Skill\s+\{"skill":"prereview"\}/);
    expect(await transcript.innerText()).toContain('Review complete: 0 blocking findings.');
    const diff = await page.getByLabel('Workspace diff').innerText();
    expect(diff).toContain('+++ b/REVIEW.md');
    expect(diff).toContain('+No blocking findings.');
    await screenshot(page, 'evals-trial-transcript');

    await page.getByRole('tab', { name: /^baseline 1 · fail$/ }).click();
    await page.getByText('The agent changed nothing.').waitFor();
    expect(await flat(page, '[aria-label="Trial assertions"]')).toContain(
      'fail files_changed no changed file matches REVIEW.md',
    );
    expect(await page.locator('svg.evals-chart circle:not(.evals-baseline-point)').count()).toBe(2);
    await screenshot(page, 'evals-baseline-trial');
    expect(errors).toEqual([]);
  }, 120_000);

  it('"save this as an eval" hands the trial to the editor as a draft eval, with the eval schema', async () => {
    const { page, errors } = await app.open();
    await page.goto(`${app.served.url}#/evals/prereview`);
    await page.locator('[data-cell="review/stand-in"]').click();
    await page.getByTestId('save-as-eval').click();
    await page.waitForURL(/#\/editor\/prereview%2Fevals%2Freview-trial-1\.eval\.yaml$/);
    // The route changes before Monaco has the draft's model: wait for its text, not just the element.
    const lines = async () =>
      (await page.locator('.monaco-editor .view-lines').first().innerText({ timeout: 20_000 })).replace(/\u00a0/g, ' ');
    await expect.poll(lines, { timeout: 20_000 }).toContain('task: Review my pending change before pushing');
    const text = await lines();
    expect(text).toContain('- skill_triggered: true');
    expect(text).toContain('- output_contains: "Review complete: 0 blocking findings."');
    expect(await page.locator('.ed-hint').innerText()).toContain('completion and hover from the eval schema');
    await screenshot(page, 'evals-saved-as-eval');
    expect(errors).toEqual([]);
  }, 60_000);

  it('starts a run from the editor and follows it in the Evals view', async () => {
    const { page, errors } = await app.open();
    await page.goto(`${app.served.url}#/editor/prereview`);
    await page.getByTestId('editor-run-evals').click();
    await page.waitForURL(/#\/evals\/prereview$/);
    await page
      .getByTestId('evals-progress')
      .getByText(/^done — 10 trials$/)
      .waitFor({ timeout: 60_000 });
    // Two stored runs now, each with a point for review and for trigger.
    await expect
      .poll(() => page.locator('svg.evals-chart circle:not(.evals-baseline-point)').count(), { timeout: 10_000 })
      .toBe(4);
    expect(await page.locator('svg.evals-chart circle.evals-baseline-point').count()).toBe(2);
    await screenshot(page, 'evals-history');
    expect(errors).toEqual([]);
  }, 120_000);

  it('cancels a run whose agent never finishes', async () => {
    const { page, errors } = await app.open();
    await page.goto(`${app.served.url}#/evals/sleepy`);
    await page.getByRole('button', { name: 'Run evals' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByTestId('evals-progress')
      .getByText(/^cancelled after \d of 2 trials$/)
      .waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Run evals' }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);
});
