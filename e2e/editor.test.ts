/**
 * The skill editor end to end in Chromium over `skillsmith serve`: create a skill from
 * scratch, break its manifest and watch the markers land on the right lines and clear,
 * paste a zero-width character and remove it with the quick fix, quote a YAML value by
 * quick fix, keep unsaved edits over a reload, and resolve a file changed on disk while
 * open without losing either version. Screenshots go to e2e/artifacts/editor-*.png.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { requireBuiltApp } from './support/app';
import { haveChromium, launchChromium, screenshot, watchedPage, type Watched } from './support/browser';
import { editorShows, openEditor } from './support/editor';
import { scratchWorkspace, startServe, type Served } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

type Marker = {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
  message: string;
  severity: number;
  owner: string;
};

const markers = (page: Page, file: string): Promise<Marker[]> =>
  page.evaluate((f) => window.__skillsmithEditor!.markers(f) as unknown as Marker[], file);
const value = (page: Page, file: string): Promise<string | undefined> =>
  page.evaluate((f) => window.__skillsmithEditor!.value(f), file);

async function tab(page: Page, file: string): Promise<void> {
  await page.click(`[data-tab="${file}"]`);
  await editorShows(page, file);
}

/** Replace line `line` of the active file with `text`, typed as the author would. */
async function replaceLine(page: Page, line: number, text: string): Promise<void> {
  await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 1), line);
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  await page.keyboard.insertText(text);
}

async function waitMarkers(page: Page, file: string, pred: (ms: Marker[]) => boolean, what: string): Promise<Marker[]> {
  const deadline = Date.now() + 10_000;
  let last: Marker[] = [];
  while (Date.now() < deadline) {
    last = await markers(page, file);
    if (pred(last)) return last;
    await page.waitForTimeout(50);
  }
  throw new Error(
    `${what}: markers on ${file} never matched; last: ${JSON.stringify(last.map((m) => [m.startLineNumber, m.message]))}`,
  );
}

describe.skipIf(!ok)('the skill editor in Chromium over `skillsmith serve`', () => {
  let browser: Browser;
  let ws: ReturnType<typeof scratchWorkspace>;
  let served: Served;
  let w: Watched;

  beforeAll(async () => {
    requireBuiltApp();
    ws = scratchWorkspace();
    served = await startServe(['--project', ws.project], { SKILLSMITH_DATA_DIR: ws.dataDir });
    browser = await launchChromium();
    w = await watchedPage(browser, { width: 1440, height: 900 });
    await w.page.goto(served.url);
    await w.page.locator('.dash-problem').first().waitFor({ timeout: 30_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    ws?.cleanup();
  }, 30_000);

  const skillDir = () => join(ws.project, '.kitbash/skills/changelog-writer');

  it("opens from the dashboard: a problem's Edit link lands in the editor with the same finding, in a file it only scans", async () => {
    const { page } = w;
    await page
      .locator('.dash-problem', { hasText: 'remote-exec' })
      .locator('[data-action="edit-skill"]')
      .first()
      .click();
    await page.waitForFunction(() => window.location.hash === '#/editor/dependency-audit');
    await openEditor(page, 'dependency-audit');
    const row = page.locator('.ed-problem[data-code="remote-exec"]');
    await row.waitFor();
    expect(await row.innerText()).toMatch(/scripts\/audit\.sh:\d+:\d+[\s\S]*blocks install/i);
    expect(await page.locator('.ed-tabs [role="tab"]').allInnerTexts()).toEqual(['SKILL.md', 'skill.toml']);
    await screenshot(page, 'editor-dependency-audit', false);
  }, 60_000);

  it('creates a skill from scratch: a valid manifested skill that lints clean, opened in the editor', async () => {
    const { page } = w;
    // Back to the skill list (the Editor tab alone would reopen the skill open last).
    await page.locator('.ed-title a', { hasText: 'Skills' }).click();
    await page.waitForFunction(() => window.location.hash === '#/editor');
    const form = page.locator('form[aria-label="New skill"]');
    await form.waitFor({ timeout: 30_000 });
    // The form refuses what the manifest would refuse, before asking main.
    await form.locator('input[name="name"]').fill('Changelog Writer');
    await form.locator('textarea[name="description"]').fill('short');
    expect(await form.locator('.ed-field-error').allInnerTexts()).toHaveLength(2);
    expect(await form.locator('button[type="submit"]').isDisabled()).toBe(true);
    await form.locator('input[name="name"]').fill('changelog-writer');
    await form
      .locator('textarea[name="description"]')
      .fill('Drafts changelog entries from the merged pull requests of a release.');
    await form.locator('button[type="submit"]').click();
    await page.waitForFunction(() => window.location.hash === '#/editor/changelog-writer');
    await openEditor(page, 'changelog-writer');

    const toml = readFileSync(join(skillDir(), 'skill.toml'), 'utf8');
    expect(toml).toMatch(
      /^\[skill\]\nname = "changelog-writer"\nversion = "0\.1\.0"\ndescription = "Drafts changelog entries/,
    );
    expect(readFileSync(join(skillDir(), 'SKILL.md'), 'utf8')).toMatch(/^# changelog-writer\n/);
    await page.waitForFunction(() => document.querySelector('[data-status]')?.getAttribute('data-status') === 'pass');
    expect(await page.locator('.ed-tabs [role="tab"]').allInnerTexts()).toEqual(['SKILL.md', 'skill.toml']);
    // The budget meter and the standing stub.
    expect(await page.locator('[data-meter="Body"] .ed-meter-value').innerText()).toMatch(/^\d+ \/ 2,000 tok$/);
    expect(await page.locator('[data-meter="Standing stub"] .ed-meter-value').innerText()).toMatch(/^\d+ \/ 100 tok$/);
    await page.locator('.ed-stub-line').first().waitFor();
    await screenshot(page, 'editor-new-skill', false);
  }, 90_000);

  it('puts markers on the lines of an invalid manifest and clears them once it is fixed', async () => {
    const { page } = w;
    await tab(page, 'skill.toml');
    const lines = (await value(page, 'skill.toml'))!.split('\n');
    const versionLine = lines.indexOf('version = "0.1.0"') + 1;
    const budgetLine = lines.indexOf('budget = 2000') + 1;
    expect(versionLine).toBeGreaterThan(0);
    expect(budgetLine).toBeGreaterThan(versionLine);

    await replaceLine(page, versionLine, 'version = "one"');
    await replaceLine(page, budgetLine, 'budget = 5');
    const bad = await waitMarkers(page, 'skill.toml', (ms) => ms.length === 2, 'invalid manifest');
    expect(bad.map((m) => [m.startLineNumber, m.startColumn])).toEqual([
      [versionLine, 'version = '.length + 1],
      [budgetLine, 'budget = '.length + 1],
    ]);
    expect(bad[0]!.message).toMatch(/skill\.version "one" is not semver/);
    expect(bad[1]!.message).toMatch(/context\.budget is required and must be 50–20000/);
    // Squiggles are on screen, the tab counts them, the header says errors.
    await page.locator('.ed-host .squiggly-error').first().waitFor();
    expect(await page.locator('[data-tab="skill.toml"] .ed-tab-count.fail').innerText()).toBe('2');
    await page.waitForFunction(() => document.querySelector('[data-status]')?.getAttribute('data-status') === 'fail');

    // A TOML syntax error is marked at its line, and the other problems stay marked beside it.
    await replaceLine(page, budgetLine, 'budget = = 5');
    const syntax = await waitMarkers(
      page,
      'skill.toml',
      (ms) => ms.length === 2 && ms.some((m) => /invalid TOML/.test(m.message)),
      'TOML syntax',
    );
    expect(syntax.map((m) => [m.startLineNumber, /invalid TOML/.test(m.message)])).toEqual([
      [versionLine, false],
      [budgetLine, true],
    ]);
    await screenshot(page, 'editor-invalid-manifest', false);

    await replaceLine(page, budgetLine, 'budget = 2000');
    await waitMarkers(page, 'skill.toml', (ms) => ms.length === 1 && /semver/.test(ms[0]!.message), 'budget fixed');
    await replaceLine(page, versionLine, 'version = "0.2.0"');
    await waitMarkers(page, 'skill.toml', (ms) => ms.length === 0, 'manifest fixed');
    await page.waitForFunction(() => document.querySelector('[data-status]')?.getAttribute('data-status') === 'pass');
    await page.waitForFunction(() => document.querySelectorAll('.ed-host .squiggly-error').length === 0);

    // Ctrl+S writes it (atomically, through main).
    await page.keyboard.press('Control+s');
    await page.waitForFunction(() => window.__skillsmithEditor!.dirty().length === 0);
    expect(readFileSync(join(skillDir(), 'skill.toml'), 'utf8')).toContain('version = "0.2.0"');
  }, 90_000);

  it('flags a pasted zero-width character as blocking at its exact column, and the quick fix removes it', async () => {
    const { page } = w;
    await tab(page, 'SKILL.md');
    const lines = (await value(page, 'SKILL.md'))!.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Drafts changelog')) + 1;
    expect(at).toBeGreaterThan(0);
    await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 7), at);
    await page.keyboard.insertText('\u200B');
    const found = await waitMarkers(
      page,
      'SKILL.md',
      (ms) => ms.some((m) => /visible-text/.test(m.message)),
      'zero-width',
    );
    const zw = found.find((m) => /visible-text/.test(m.message))!;
    expect([zw.startLineNumber, zw.startColumn, zw.endColumn]).toEqual([at, 7, 8]);
    expect(zw.message).toMatch(/U\+200B.*blocks install/);
    const row = page.locator('.ed-problem.blocking[data-code="visible-text"]');
    await row.waitFor();
    expect(await row.innerText()).toMatch(/blocks install/i);
    await page.waitForFunction(
      () => document.querySelector('[data-status]')?.getAttribute('data-status') === 'blocking',
    );
    await screenshot(page, 'editor-zero-width', false);

    // Monaco offers the same fix as a code action at the marker (Ctrl+.).
    await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 7), at);
    await page.keyboard.press('Control+.');
    const menu = page.locator('.action-widget', { hasText: 'Remove the invisible characters here' });
    await menu.waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await row.locator('.ed-fix-btn').click();
    await waitMarkers(page, 'SKILL.md', (ms) => !ms.some((m) => /visible-text/.test(m.message)), 'zero-width removed');
    expect(await value(page, 'SKILL.md')).not.toContain('\u200B');
    await page.waitForFunction(() => document.querySelectorAll('.ed-problem.blocking').length === 0);
  }, 60_000);

  it('validates skill.spec.yml with the SkillSpec engine and the schema, and quotes a value containing ": " by quick fix', async () => {
    const { page } = w;
    await page.locator('.ed-tab.add', { hasText: 'skill.spec.yml' }).click();
    await page.waitForFunction(
      () => document.querySelector('.ed-host')?.getAttribute('data-file') === 'skill.spec.yml',
    );
    const lines = (await value(page, 'skill.spec.yml'))!.split('\n');
    const titleLine = lines.findIndex((l) => l.startsWith('title:')) + 1;
    await replaceLine(page, titleLine, 'title: Changelog: the writer');
    const found = await waitMarkers(page, 'skill.spec.yml', (ms) => ms.length > 0, 'spec parse error');
    expect(found[0]!.startLineNumber).toBe(titleLine);
    const fix = page.locator('.ed-problem[data-code="spec/parse_yaml"] .ed-fix-btn');
    expect(await fix.innerText()).toMatch(/Quote the value/);
    await fix.click();
    await waitMarkers(page, 'skill.spec.yml', (ms) => ms.length === 0, 'quoted');
    expect((await value(page, 'skill.spec.yml'))!.split('\n')[titleLine - 1]).toBe('title: "Changelog: the writer"');

    // monaco-yaml validates against the SkillSpec JSON Schema (inlined, never fetched).
    await replaceLine(page, titleLine, 'title: "Changelog: the writer"\nbogus_field: 1');
    await page.waitForFunction(
      () =>
        (window.__skillsmithEditor!.allMarkers('skill.spec.yml') as unknown as { owner: string }[]).some(
          (m) => m.owner !== 'skillsmith',
        ),
      null,
      { timeout: 15_000 },
    );
    await screenshot(page, 'editor-spec', false);
    await page.keyboard.press('Control+z');
  }, 60_000);

  it('keeps unsaved edits over a reload of the window (drafts)', async () => {
    const { page } = w;
    await tab(page, 'SKILL.md');
    const lines = (await value(page, 'SKILL.md'))!.split('\n');
    await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 1), lines.length);
    await page.keyboard.insertText('Unsaved line typed before the reload.\n');
    await page.waitForTimeout(600);
    await page.reload();
    await openEditor(page, 'changelog-writer');
    expect(await value(page, 'SKILL.md')).toContain('Unsaved line typed before the reload.');
    const dirty = await page.evaluate(() => window.__skillsmithEditor!.dirty());
    expect(dirty).toContain('SKILL.md');
    expect(dirty).toContain('skill.spec.yml');
    expect(readFileSync(join(skillDir(), 'SKILL.md'), 'utf8')).not.toContain('Unsaved line');
    await page.locator('[data-tab="SKILL.md"] .ed-tab-dirty').waitFor();
  }, 60_000);

  it('resolves a file changed on disk while open: both versions shown, nothing lost', async () => {
    const { page } = w;
    const file = join(skillDir(), 'SKILL.md');
    const mine = (await value(page, 'SKILL.md'))!;
    const theirs = readFileSync(file, 'utf8').replace('## Steps', '## Steps (edited on disk)');
    writeFileSync(file, theirs);
    const banner = page.locator('[data-conflict="SKILL.md"]');
    await banner.waitFor({ timeout: 15_000 });
    // The buffer is untouched by the change on disk.
    expect(await value(page, 'SKILL.md')).toBe(mine);

    await banner.locator('button').click();
    const dialog = page.locator('.ed-diff-dialog');
    await dialog.waitFor();
    await page.locator('.ed-diff-dialog .monaco-diff-editor').waitFor();
    await page.waitForTimeout(400);
    const shown = (await dialog.innerText()).replace(/\u00a0/g, ' ');
    expect(shown).toContain('(edited on disk)');
    expect(shown).toContain('Unsaved line typed before the reload.');
    await screenshot(page, 'editor-conflict-diff', false);

    // Taking the disk version keeps mine one undo away.
    await dialog.locator('[data-action="take-disk"]').click();
    await page.waitForFunction(() => window.__skillsmithEditor!.value('SKILL.md')!.includes('(edited on disk)'));
    await page.waitForFunction(() => document.querySelectorAll('[data-conflict]').length === 0);
    await page.evaluate(() => window.__skillsmithEditor!.goto(1, 1));
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() =>
      window.__skillsmithEditor!.value('SKILL.md')!.includes('Unsaved line typed before the reload.'),
    );
    expect(await value(page, 'SKILL.md')).toBe(mine);

    // Someone changes it again; this time the author keeps theirs and saves it over the disk.
    writeFileSync(file, theirs.replace('(edited on disk)', '(edited twice)'));
    await banner.waitFor({ timeout: 15_000 });
    await page.locator('button', { hasText: 'Save all' }).click();
    await dialog.waitFor();
    await page.waitForFunction(() =>
      (document.querySelector('.ed-diff-dialog') as HTMLElement | null)?.innerText
        .replace(/\u00a0/g, ' ')
        .includes('(edited twice)'),
    );
    // Nothing was written while the conflict is open.
    expect(readFileSync(file, 'utf8')).toContain('(edited twice)');
    await dialog.locator('[data-action="keep-mine"]').click();
    await dialog.waitFor({ state: 'detached' });
    expect(readFileSync(file, 'utf8')).toBe(mine);
    await page.waitForFunction(() => !window.__skillsmithEditor!.dirty().includes('SKILL.md'));
  }, 90_000);

  it('opens a draft handed in by another view (drafts.ts format) as the active, unsaved, validated tab', async () => {
    const { page } = w;
    const root = await page.locator('.app-project-path').getAttribute('title');
    await page.evaluate(
      ([r]) => {
        const value = {
          v: 1,
          text: 'schema: skillspec/v0\nid: Bad Id\ntitle: Prereview\ndescription: Decides.\n',
          base: null,
          at: new Date().toISOString(),
        };
        localStorage.setItem(
          ['skillsmith.draft.v1', r, 'prereview', 'skill.spec.yml'].join('\u0000'),
          JSON.stringify(value),
        );
      },
      [root],
    );
    await openEditor(page, 'prereview');
    await page.waitForFunction(
      () => document.querySelector('.ed-host')?.getAttribute('data-file') === 'skill.spec.yml',
    );
    expect(await page.evaluate(() => window.__skillsmithEditor!.dirty())).toEqual(['skill.spec.yml']);
    const found = await waitMarkers(page, 'skill.spec.yml', (ms) => ms.length > 0, 'handed-in draft');
    expect(found[0]!.startLineNumber).toBe(2);
    expect(found[0]!.message).toMatch(/invalid identifier "Bad Id"/);
  }, 60_000);

  it('follows the dark colour scheme (screenshot)', async () => {
    const dark = await watchedPage(browser, { width: 1440, height: 900, colorScheme: 'dark' });
    try {
      await dark.page.goto(`${served.url}#/editor/prereview`);
      await openEditor(dark.page, 'prereview');
      await dark.page.waitForFunction(() =>
        document.querySelector('.ed-host .monaco-editor')?.classList.contains('vs-dark'),
      );
      await screenshot(dark.page, 'editor-dark', false);
      expect(dark.errors).toEqual([]);
      expect(dark.offHost).toEqual([]);
    } finally {
      await dark.context.close();
    }
  }, 60_000);

  it('made no request off the loopback host and logged no errors', () => {
    expect(w.offHost).toEqual([]);
    expect(w.errors).toEqual([]);
  });
});
