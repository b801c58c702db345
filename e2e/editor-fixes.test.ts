/**
 * Editing in Chromium over `skillsmith serve` (the renderer's test build): each quick fix
 * from Monaco's menu (Ctrl+.) and from the Problems list, the checks that go on while
 * skill.toml is broken, a preview that shows only its skill's own problems, notices that
 * neither move the page nor take focus and go by themselves, and the skill and tab that
 * come back after a reload and a switch to another project. Every quick-fix menu and the
 * notices are screenshotted at 1400 and 900 px, light and dark (e2e/artifacts/).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repinSkill } from '../tests/sandbox/helpers';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, type Watched } from './support/browser';
import { editorReady, editorShows, openEditor } from './support/editor';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

type Marker = { startLineNumber: number; startColumn: number; message: string };

const markers = (page: Page, file: string): Promise<Marker[]> =>
  page.evaluate((f) => window.__skillsmithEditor!.markers(f) as unknown as Marker[], file);
const value = (page: Page, file: string): Promise<string> =>
  page.evaluate((f) => window.__skillsmithEditor!.value(f) ?? '', file);
const hash = (page: Page) => page.evaluate(() => window.location.hash);

async function tab(page: Page, file: string): Promise<void> {
  await page.click(`[data-tab="${file}"]`);
  await editorShows(page, file);
}

/** The 1-based line of the active file that `pred` picks. */
async function lineOf(page: Page, file: string, pred: (l: string) => boolean): Promise<number> {
  const i = (await value(page, file)).split('\n').findIndex(pred);
  expect(i, `no such line in ${file}`).toBeGreaterThanOrEqual(0);
  return i + 1;
}

/**
 * Replace line `line` of the active file with `text` (nothing: the line goes), typed as the
 * author would. Ctrl+L selects the whole line, however it wraps on screen, with its break.
 */
async function replaceLine(page: Page, line: number, text: string): Promise<void> {
  await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 1), line);
  await page.keyboard.press('Control+l');
  if (text) await page.keyboard.insertText(`${text}\n`);
  else await page.keyboard.press('Backspace');
}

async function until(page: Page, file: string, pred: (ms: Marker[]) => boolean, what: string): Promise<Marker[]> {
  const deadline = Date.now() + 15_000;
  let last: Marker[] = [];
  while (Date.now() < deadline) {
    last = await markers(page, file);
    if (pred(last)) return last;
    await page.waitForTimeout(50);
  }
  throw new Error(`${what}: ${file} markers never matched; last ${JSON.stringify(last.map((m) => m.message))}`);
}

const has = (re: RegExp) => (ms: Marker[]) => ms.some((m) => re.test(m.message));
const hasNot = (re: RegExp) => (ms: Marker[]) => !ms.some((m) => re.test(m.message));

/** The previews follow a pause in typing: let them catch up before a screenshot. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(350);
  await page.waitForFunction(() => !document.querySelector('.pv-body[aria-busy="true"]'));
}

/** Ctrl+. at line/column: Monaco's quick-fix menu, with its entries' titles. */
async function quickFixMenu(page: Page, line: number, column: number): Promise<string[]> {
  await page.evaluate(([l, c]) => window.__skillsmithEditor!.goto(l!, c), [line, column]);
  await page.keyboard.press('Control+.');
  // Entries, not the group headers ("Quick Fix").
  const rows = page.locator('.action-widget .monaco-list-row.action');
  await rows.first().waitFor({ timeout: 10_000 });
  return (await rows.allInnerTexts()).map((t) => t.trim());
}

/** Choose `title` in the open menu the way a keyboard user does: the first entry is focused. */
async function pick(page: Page, title: string): Promise<void> {
  const titles = (await page.locator('.action-widget .monaco-list-row.action').allInnerTexts()).map((t) => t.trim());
  const i = titles.indexOf(title);
  expect(i, `${title} not in ${JSON.stringify(titles)}`).toBeGreaterThanOrEqual(0);
  for (let n = 0; n < i; n++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.locator('.action-widget').waitFor({ state: 'hidden' });
}

const VARIANTS = [
  { width: 1400, colorScheme: 'light' },
  { width: 1400, colorScheme: 'dark' },
  { width: 900, colorScheme: 'light' },
  { width: 900, colorScheme: 'dark' },
] as const;

describe.skipIf(!ok)('editing: quick fixes, checks kept, own problems, notices, restore', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  let w: Watched;
  const toml = () => join(app.project.project, '.kitbash/skills/prereview/skill.toml');

  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
    w = await app.open({ width: 1400, height: 900 });
    await w.page.goto(`${app.served.url}#/editor/prereview`);
    await editorReady(w.page);
  }, 90_000);

  afterAll(async () => {
    await app?.close({ graceMs: 10_000 });
  }, 30_000);

  it('an unknown key: Ctrl+. offers the key it is a typo of, or removing the line', async () => {
    const { page } = w;
    await tab(page, 'skill.toml');
    const line = await lineOf(page, 'skill.toml', (l) => l === 'network = false');
    await replaceLine(page, line, 'netwrok = false');
    await until(page, 'skill.toml', has(/unknown key permissions\.netwrok/), 'unknown key');
    expect(await quickFixMenu(page, line, 2)).toEqual(['Rename netwrok to network', 'Remove netwrok']);
    await settle(page);
    await screenshot(page, 'editor-fix-unknown-key', false);
    await pick(page, 'Rename netwrok to network');
    await until(page, 'skill.toml', hasNot(/unknown key/), 'renamed');
    expect((await value(page, 'skill.toml')).split('\n')[line - 1]).toBe('network = false');
  }, 60_000);

  it('a bad version: made semver, from the Problems list', async () => {
    const { page } = w;
    const line = await lineOf(page, 'skill.toml', (l) => l.startsWith('version = '));
    await replaceLine(page, line, 'version = "v1.2"');
    await until(page, 'skill.toml', has(/skill\.version "v1\.2" is not semver/), 'bad version');
    expect(await quickFixMenu(page, line, 12)).toEqual(['Set version = "1.2.0"']);
    await settle(page);
    await screenshot(page, 'editor-fix-version', false);
    // Escape closes the menu and only the menu: focus stays in the text.
    await page.keyboard.press('Escape');
    await page.locator('.action-widget').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'))).toBe(true);
    await page.locator('.ed-problem[data-code="manifest"] .ed-fix-btn', { hasText: 'Set version = "1.2.0"' }).click();
    await until(page, 'skill.toml', (ms) => ms.length === 0, 'version fixed');
    expect((await value(page, 'skill.toml')).split('\n')[line - 1]).toBe('version = "1.2.0"');
  }, 60_000);

  it('a missing required field: inserted where it belongs', async () => {
    const { page } = w;
    const line = await lineOf(page, 'skill.toml', (l) => l.startsWith('description = '));
    await replaceLine(page, line, '');
    await until(page, 'skill.toml', has(/skill\.description must be 10–200/), 'missing description');
    const title = 'Insert a description (from SKILL.md)';
    expect(await quickFixMenu(page, 1, 2)).toEqual([title]);
    await settle(page);
    await screenshot(page, 'editor-fix-missing-field', false);
    await pick(page, title);
    await until(page, 'skill.toml', (ms) => ms.length === 0, 'description inserted');
    expect(await value(page, 'skill.toml')).toMatch(/\[skill\]\n[\s\S]*\ndescription = "[^"]{10,200}"\n/);
  }, 60_000);

  it('over budget: the budget raised to what the body needs, or the Costs view opened', async () => {
    const { page } = w;
    const line = await lineOf(page, 'skill.toml', (l) => l.startsWith('budget = '));
    await replaceLine(page, line, 'budget = 50');
    await until(page, 'skill.toml', has(/^budget: body ~\d+ tok \/ budget 50/), 'over budget');
    const menu = await quickFixMenu(page, line, 11);
    expect(menu).toEqual([
      expect.stringMatching(/^Raise budget to \d00 tokens$/),
      'Open the Costs view for this skill',
    ]);
    await settle(page);
    await screenshot(page, 'editor-fix-budget', false);
    await pick(page, menu[0]!);
    await until(page, 'skill.toml', (ms) => ms.length === 0, 'budget raised');
    expect((await value(page, 'skill.toml')).split('\n')[line - 1]).toMatch(/^budget = \d00$/);

    await replaceLine(page, line, 'budget = 50');
    await until(page, 'skill.toml', has(/^budget: /), 'over budget again');
    await page.locator('.ed-problem[data-code="budget"] .ed-fix-btn[data-fix="command"]').click();
    await expect.poll(() => hash(page)).toBe('#/costs/prereview');
    // Back in the editor, the unsaved buffer is still there (kept as a draft).
    await page.goBack();
    await editorReady(page);
    await editorShows(page, 'skill.toml');
    expect((await value(page, 'skill.toml')).split('\n')[line - 1]).toBe('budget = 50');
    await replaceLine(page, line, 'budget = 1500');
    await until(page, 'skill.toml', (ms) => ms.length === 0, 'budget back');
  }, 60_000);

  it('while skill.toml does not parse, its error is at its place and SKILL.md is still checked', async () => {
    const { page } = w;
    const line = await lineOf(page, 'skill.toml', (l) => l.startsWith('standing = '));
    const before = (await value(page, 'skill.toml')).split('\n')[line - 1]!;
    await replaceLine(page, line, 'standing = = 60');
    const syntax = await until(page, 'skill.toml', has(/invalid TOML/), 'toml error');
    expect(syntax.map((m) => [m.startLineNumber, m.startColumn])).toEqual([[line, 12]]);
    await tab(page, 'SKILL.md');
    const at = await lineOf(page, 'SKILL.md', (l) => l.length > 20 && !l.startsWith('#') && !l.startsWith('-'));
    await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 3), at);
    await page.keyboard.insertText('\u200B');
    const zw = await until(page, 'SKILL.md', has(/visible-text/), 'zero-width while the manifest is broken');
    expect(zw.find((m) => /visible-text/.test(m.message))!.startLineNumber).toBe(at);
    expect(await page.locator('.ed-problem', { hasText: 'invalid TOML' }).count()).toBe(1);
    await settle(page);
    await screenshot(page, 'editor-broken-manifest-kept', false);
    await page.keyboard.press('Control+z');
    await tab(page, 'skill.toml');
    await replaceLine(page, line, before);
    await until(page, 'skill.toml', (ms) => ms.length === 0, 'toml fixed');
    await until(page, 'SKILL.md', hasNot(/visible-text/), 'zero-width undone');
  }, 60_000);

  it('a notice says "Saved" without moving the page or taking focus, and goes by itself', async () => {
    const { page } = w;
    await tab(page, 'SKILL.md');
    const end = (await value(page, 'SKILL.md')).split('\n').length;
    await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 1), end);
    const grid = page.locator('.ed-grid');
    const top = (await grid.boundingBox())!.y;
    await page.keyboard.insertText('7. Cite the lines you reviewed.\n');
    await page.keyboard.press('Control+s');
    const toast = page.locator('.ed-notices [role="status"] .ed-toast', { hasText: 'Saved SKILL.md' });
    await toast.waitFor({ timeout: 10_000 });
    expect((await grid.boundingBox())!.y).toBe(top);
    expect(await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'))).toBe(true);
    await settle(page);
    await screenshot(page, 'editor-notice-1400-light', false);
    await toast.waitFor({ state: 'detached', timeout: 8_000 });
    // The manifest's fixes above are saved too: the skill on disk is the fixed one.
    await page.locator('button', { hasText: 'Save all' }).click();
    await page.locator('.ed-toast', { hasText: 'Saved skill.toml' }).waitFor();
    expect(readFileSync(toml(), 'utf8')).toContain('version = "1.2.0"');
  }, 60_000);

  it('a drifted pin: re-pinned after a review of the saved files, in place — the edits stay, the lock waits for approval', async () => {
    const { page } = w;
    const root = app.project.project;
    const skill = (f: string) => readFileSync(join(root, '.kitbash/skills/prereview', f), 'utf8');
    const lockFile = () => readFileSync(join(root, 'kitbash.lock'), 'utf8');
    const pinned = 'integrity = "sha256-fe1bbb5b1e6c1291feb333e23deceb120783d291bb5ad66e9af5f5793e0fe321"';
    // An edit not saved yet, beside the saved ones that drifted from the pin.
    await tab(page, 'SKILL.md');
    const unsaved = '8. Name the reviewer in the summary.';
    const end = (await value(page, 'SKILL.md')).split('\n').length;
    await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 1), end);
    await page.keyboard.insertText(`${unsaved}\n`);
    const saved = { md: skill('SKILL.md'), toml: skill('skill.toml') };
    expect(saved.md).not.toContain(unsaved);
    expect(lockFile()).toContain(pinned);

    // The save above changed the installed files: the dashboard says drift, and so does the editor.
    await tab(page, 'skill.toml');
    await until(page, 'skill.toml', has(/^lock: the saved files differ from what kitbash\.lock pins/), 'drift');
    expect(await quickFixMenu(page, 1, 2)).toEqual(['Review the saved files and re-pin…']);
    await settle(page);
    await screenshot(page, 'editor-fix-drift', false);
    await pick(page, 'Review the saved files and re-pin…');

    // The review opens here, over the editor: no other screen, nothing fetched, nothing written yet.
    const dialog = page.getByTestId('repin-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.getByRole('heading', { name: /^Review prereview@/ }).waitFor({ timeout: 45_000 });
    expect(await hash(page)).toBe('#/editor/prereview');
    expect(await dialog.getByTestId('repin-unsaved').innerText()).toMatch(/unsaved edits of this skill/);
    expect(lockFile()).toContain(pinned);
    expect([skill('SKILL.md'), skill('skill.toml')]).toEqual([saved.md, saved.toml]);
    await screenshot(page, 'editor-repin-review', false);

    // Approved: the lock pins the saved files; the files themselves and the unsaved edit are untouched.
    await dialog.locator('[data-action="approve-repin"]').click();
    await dialog.getByTestId('repin-done').waitFor({ timeout: 45_000 });
    expect(lockFile()).not.toContain(pinned);
    expect(lockFile()).toMatch(/name = "prereview"[\s\S]*?integrity = "sha256-[0-9a-f]{64}"/);
    expect([skill('SKILL.md'), skill('skill.toml')]).toEqual([saved.md, saved.toml]);
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await until(page, 'skill.toml', hasNot(/^lock:/), 're-pinned');
    expect(await value(page, 'SKILL.md')).toContain(unsaved);

    // Saving the edit drifts from the new pin, as it should (and the screenshots below show it).
    await tab(page, 'SKILL.md');
    await page.evaluate(() => window.__skillsmithEditor!.goto(1, 1));
    await page.keyboard.press('Control+s');
    await page.locator('.ed-toast', { hasText: 'Saved SKILL.md' }).waitFor();
    expect(skill('SKILL.md')).toContain(unsaved);
    await tab(page, 'skill.toml');
    await until(page, 'skill.toml', has(/^lock: the saved files differ/), 'drift again');
  }, 120_000);

  it("a skill's preview shows its own problems only; another skill's refusal is one line, gone once fixed", async () => {
    const { page } = w;
    // A server the mcp check passes: one it fails would block the skill, and compile would not deliver it.
    const server = '\n[mcp.servers.db]\ntransport = "stdio"\ncommand = "db-mcp"\ntools = ["query"]\n';
    const files = ['api-style', 'release-notes'].map((d) =>
      join(app.project.project, '.kitbash/skills', d, 'skill.toml'),
    );
    const saved = files.map((f) => readFileSync(f, 'utf8'));
    const lock = join(app.project.project, 'kitbash.lock');
    const pinned = readFileSync(lock, 'utf8');
    files.forEach((f, i) => writeFileSync(f, saved[i] + server));
    // Pinned again as edited, as a reviewed re-pin would: a drifted skill is not delivered, so it could not clash.
    for (const d of ['api-style', 'release-notes']) repinSkill(app.project.project, d);
    await openEditor(page, 'prereview');
    const note = page.getByTestId('project-refusals');
    await note.waitFor({ timeout: 20_000 });
    expect(await note.innerText()).toMatch(/1 project-wide reason that this skill does not cause/);
    expect(await page.getByTestId('plan-errors').count()).toBe(0);
    expect(await page.locator('.pv-pane').innerText()).not.toContain('declared by both');
    await settle(page);
    await screenshot(page, 'editor-preview-own-problems', false);
    files.forEach((f, i) => writeFileSync(f, saved[i]!));
    writeFileSync(lock, pinned);
    await note.waitFor({ state: 'detached', timeout: 20_000 });
  }, 60_000);

  it('the skill and tab open last come back after a reload and after switching project and back', async () => {
    const { page } = w;
    await openEditor(page, 'tidy-commits');
    await tab(page, 'SKILL.md');
    await openEditor(page, 'prereview');
    await tab(page, 'skill.toml');
    await page.reload();
    await editorReady(page);
    await editorShows(page, 'skill.toml');
    expect(await hash(page)).toBe('#/editor/prereview');

    // Another project, then back: its dashboard first; the Editor tab reopens prereview on skill.toml.
    const other = join(app.project.root, 'other');
    cpSync(join(app.project.project), other, { recursive: true });
    await page.locator('[data-action="switch-project"]').click();
    await page.getByLabel('Folder path').fill(other);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.locator('[role="table"][aria-label="Installed skills"]').waitFor({ timeout: 30_000 });
    await page.locator('.app-view-tab', { hasText: 'Editor' }).click();
    await page.getByRole('form', { name: 'New skill' }).waitFor();
    expect(await hash(page)).toBe('#/editor');
    await page.locator('[data-action="switch-project"]').click();
    await page.locator('.app-recent-open', { hasText: 'workspace' }).click();
    await page.locator('[role="table"][aria-label="Installed skills"]').waitFor({ timeout: 30_000 });
    expect(await hash(page)).toBe('#/dashboard');
    await page.locator('.app-view-tab', { hasText: 'Editor' }).click();
    await editorReady(page);
    await editorShows(page, 'skill.toml');
    expect(await hash(page)).toBe('#/editor/prereview');

    // The Skills link is the way to the list; after it the Editor tab shows the list too.
    await page.locator('.ed-title a', { hasText: 'Skills' }).click();
    await page.getByRole('form', { name: 'New skill' }).waitFor();
    await page.locator('.app-view-tab', { hasText: 'Dashboard' }).click();
    await page.locator('.app-view-tab', { hasText: 'Editor' }).click();
    await page.getByRole('form', { name: 'New skill' }).waitFor();
    expect(await hash(page)).toBe('#/editor');
  }, 90_000);

  it('every quick-fix menu and a notice at 1400 and 900 px, light and dark (screenshots)', async () => {
    const root = app.project.project;
    const cases: { name: string; text: (t: string) => string; at: (t: string) => [number, number] }[] = [
      {
        name: 'unknown-key',
        text: (t) => t.replace('network = false', 'netwrok = false'),
        at: (t) => [t.split('\n').indexOf('netwrok = false') + 1, 2],
      },
      {
        name: 'version',
        text: (t) => t.replace(/version = "[^"]*"/, 'version = "v1.2"'),
        at: (t) => [t.split('\n').indexOf('version = "v1.2"') + 1, 12],
      },
      { name: 'missing-field', text: (t) => t.replace(/description = .*\n/, ''), at: () => [1, 2] },
      {
        name: 'budget',
        text: (t) => t.replace(/budget = \d+/, 'budget = 50'),
        at: (t) => [t.split('\n').indexOf('budget = 50') + 1, 11],
      },
      { name: 'drift', text: (t) => t, at: () => [1, 2] },
    ];
    const disk = readFileSync(toml(), 'utf8');
    for (const v of VARIANTS.slice(1)) {
      const { page, context } = await app.open({ width: v.width, height: 900, colorScheme: v.colorScheme });
      try {
        await page.goto(app.served.url);
        for (const c of cases) {
          const text = c.text(disk);
          await page.evaluate(
            ([k, t]) =>
              localStorage.setItem(k!, JSON.stringify({ v: 1, text: t, base: null, at: new Date().toISOString() })),
            [['skillsmith.draft.v1', root, 'prereview', 'skill.toml'].join('\u0000'), text],
          );
          await page.goto(`${app.served.url}#/editor/prereview%2Fskill.toml`);
          await page.reload();
          await editorReady(page);
          await editorShows(page, 'skill.toml');
          await until(page, 'skill.toml', (ms) => ms.length > 0, c.name);
          const [line, col] = c.at(text);
          expect((await quickFixMenu(page, line, col)).length, c.name).toBeGreaterThan(0);
          await settle(page);
          await screenshot(page, `editor-fix-${c.name}-${v.width}-${v.colorScheme}`, false);
          await page.keyboard.press('Escape');
        }
        await page.keyboard.press('Control+s');
        await page.locator('.ed-toast', { hasText: 'Saved skill.toml' }).waitFor();
        await settle(page);
        await screenshot(page, `editor-notice-${v.width}-${v.colorScheme}`, false);
      } finally {
        await context.close();
      }
    }
    writeFileSync(toml(), disk);
  }, 240_000);

  it('made no request off the loopback host and logged no errors', () => {
    expect(w.offHost).toEqual([]);
    expect(w.errors).toEqual([]);
  });
});
