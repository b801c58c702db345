/**
 * The jobs a user finishes in the app without the CLI (browser mode, real serve): the
 * dashboard cards act (compile with the plan shown, policy → Settings), switching project
 * asks about unsaved edits and lands on the new project's dashboard, empty states offer
 * the action, and the keyboard basics (browser mode's Alt+Shift+1…9, skip link, focus back to the opener).
 * Screens at 1400 and 900 px, light and dark, go to e2e/artifacts/.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

async function dashboard(page: Page): Promise<void> {
  await page.locator('[role="table"][aria-label="Installed skills"]').waitFor({ timeout: 20_000 });
}

const hash = (page: Page) => page.evaluate(() => window.location.hash);
const activeAction = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-action') ?? document.activeElement?.tagName ?? null);

describe.skipIf(!ok)('finishing jobs in the app', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the compiled-output card compiles with the plan shown; the policy card links to Settings; focus returns to the opener', async () => {
    const { page, errors } = await app.open();
    await page.goto(app.served.url);
    await dashboard(page);
    expect(await page.locator('[data-card="Policy"] [data-action="open-settings"]').getAttribute('href')).toBe(
      '#/settings',
    );
    // Jargon is explained where it appears, in GUI words (no CLI flags).
    const terms = await page
      .locator('.dash-view [data-term]')
      .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-term')))].sort());
    expect(terms).toEqual(expect.arrayContaining(['bare', 'eager', 'gate', 'lazy', 'pinned', 'standing', 'warning']));
    expect(await page.locator('.dash-view').innerText()).not.toMatch(/--strict|run skillsmith/);
    const compile = page.locator('[data-card="Compiled output"] [data-action="compile"]');
    await compile.click();
    const dialog = page.getByRole('dialog', { name: /Compile workspace/ });
    await dialog.waitFor();
    // The plan first: files listed, nothing written until Apply.
    await dialog.locator('.pv-plan-row, li').first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'jobs-compile-plan', false);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => activeAction(page)).toBe('compile');
    expect(errors).toEqual([]);
  });

  it('Alt+Shift+1…9 switch tabs (the browser keeps Ctrl+1…9) and a skip link leads to the content', async () => {
    const { page } = await app.open();
    await page.goto(app.served.url);
    await dashboard(page);
    // Browser mode leaves Ctrl+digit to the browser: the page does not act on it.
    const before = await hash(page);
    await page.keyboard.press('Control+2');
    await page.keyboard.press('Alt+2');
    expect(await hash(page)).toBe(before);
    expect(await page.getByRole('link', { name: 'Editor' }).getAttribute('title')).toBe('Editor (Alt+Shift+2)');
    await page.keyboard.press('Alt+Shift+Digit2');
    await expect.poll(() => hash(page)).toBe('#/editor');
    await page.keyboard.press('Alt+Shift+Digit1');
    await expect.poll(() => hash(page)).toBe('#/dashboard');
    await dashboard(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
  });

  it('switching project asks about unsaved edits, keeps or discards them, and lands on the new dashboard', async () => {
    const { page } = await app.open();
    const root = app.project.project;
    await page.goto(app.served.url);
    await dashboard(page);
    // An unsaved SKILL.md buffer, as the editor keeps it.
    const key = ['skillsmith.draft.v1', root, 'prereview', 'SKILL.md'].join('\u0000');
    await page.evaluate(
      (k) =>
        localStorage.setItem(k, JSON.stringify({ v: 1, text: 'edited', base: null, at: new Date().toISOString() })),
      key,
    );
    await page.evaluate(() => (window.location.hash = '#/editor/prereview'));
    await page.locator('.monaco-editor').first().waitFor({ timeout: 30_000 });

    const switchBtn = page.locator('[data-action="switch-project"]');
    await switchBtn.click();
    const ask = page.getByRole('alertdialog', { name: 'Unsaved edits in this project' });
    await ask.waitFor();
    expect(await ask.innerText()).toContain('prereview/SKILL.md');
    await screenshot(page, 'jobs-switch-unsaved', false);
    await page.getByRole('button', { name: 'Stay here' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await hash(page)).toBe('#/editor/prereview');
    await expect.poll(() => activeAction(page)).toBe('switch-project');

    await switchBtn.click();
    await page.getByRole('button', { name: 'Keep edits and switch' }).click();
    await page.getByRole('heading', { name: 'Recent projects' }).waitFor();
    expect(await page.evaluate((k) => localStorage.getItem(k) !== null, key)).toBe(true);

    // A new, empty project opens on its dashboard with the actions offered.
    const empty = mkdtempSync(join(app.project.root, 'empty-'));
    writeFileSync(join(empty, 'kitbash.toml'), '[project]\ntargets = ["claude-code"]\n');
    await page.getByLabel('Folder path').fill(empty);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'No skills installed yet' }).waitFor();
    expect(await hash(page)).toBe('#/dashboard');
    expect(await page.locator('.state-empty [data-action="install-skill"]').getAttribute('href')).toBe('#/install');
    await screenshot(page, 'jobs-dashboard-empty');
    for (const [tab, title] of [
      ['previews', 'No skills to preview'],
      ['matrix', 'No skills yet'],
      ['costs', 'No skills to price'],
    ] as const) {
      await page.evaluate((t) => (window.location.hash = `#/${t}`), tab);
      await page.getByRole('heading', { name: title }).waitFor();
      expect(await page.locator('.state-empty [data-action="new-skill"]').count(), tab).toBe(1);
    }
    await page.locator('.state-empty [data-action="new-skill"]').click();
    await page.getByRole('form', { name: 'New skill' }).waitFor();

    // Back to the first project from the recent list: discard drops the draft.
    await switchBtn.click();
    await page.locator('.app-recent-open', { hasText: 'workspace' }).click();
    await dashboard(page);
    await switchBtn.click();
    await page.getByRole('button', { name: 'Discard edits and switch' }).click();
    await page.getByRole('heading', { name: 'Recent projects' }).waitFor();
    expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
  });

  it('at 900 px the header wraps and keeps Switch project on screen; screens in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const { width, height } of SIZES) {
        const { page } = await app.open({ width, height, colorScheme });
        await page.goto(app.served.url);
        await page
          .locator('.app-recent-open, [role="table"][aria-label="Installed skills"]')
          .first()
          .waitFor({ timeout: 20_000 });
        if (await page.locator('.app-recent-open').count()) {
          await page.locator('.app-recent-open', { hasText: 'workspace' }).click();
          await dashboard(page);
        }
        const box = await page.locator('[data-action="switch-project"]').boundingBox();
        expect(box, `${width} ${colorScheme}`).not.toBeNull();
        expect(box!.x + box!.width, `${width} ${colorScheme}`).toBeLessThanOrEqual(width);
        await screenshot(page, `jobs-dashboard-${width}-${colorScheme}`);
        await page.context().close();
      }
    }
  });
});

describe.skipIf(!ok)('Browse… in browser mode', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    // The server's home is the scratch folder, so the picker is confined to it.
    app = await openApp(scratchWorkspace, { env: (p) => ({ HOME: p.root }) });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists folders inside the home folder only, marks projects, and opens the chosen one', async () => {
    const { page, errors } = await app.open();
    await page.goto(app.served.url);
    await dashboard(page);
    await page.locator('[data-action="switch-project"]').click();
    const browse = page.locator('[data-action="browse"]');
    await browse.click();
    const dialog = page.getByRole('dialog', { name: 'Choose a project folder' });
    await dialog.waitFor();
    await expect.poll(() => page.getByTestId('folder-path').innerText()).toBe(app.project.root);
    expect(await page.getByRole('button', { name: 'Up one folder' }).isDisabled()).toBe(true);
    const item = dialog.locator('.app-folder-item', { hasText: 'workspace' });
    expect(await item.locator('.tag').innerText()).toBe('project');
    await screenshot(page, 'jobs-browse', false);
    await item.click();
    await expect.poll(() => page.getByTestId('folder-path').innerText()).toBe(app.project.project);
    await page.locator('[data-action="open-folder"]').click();
    await dashboard(page);
    expect(await page.locator('.app-project-name').innerText()).toBe('workspace');
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!ok)('the shortcut map', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('Alt+Shift+P opens a skill, Esc leaves Monaco for the file tab, Alt+Shift+B shows the compile plan', async () => {
    const { page, errors } = await app.open();
    await page.goto(app.served.url);
    await dashboard(page);
    // Ctrl+P is the browser's (print): browser mode does not take it.
    await page.keyboard.press('Control+p');
    expect(await page.getByRole('combobox', { name: 'Skill name' }).count()).toBe(0);
    await page.keyboard.press('Alt+Shift+KeyP');
    const input = page.getByRole('combobox', { name: 'Skill name' });
    await input.waitFor();
    await input.fill('tidy');
    expect(await page.getByRole('option').allInnerTexts()).toEqual([expect.stringMatching(/^tidy-commits/)]);
    await input.press('Enter');
    await expect.poll(() => hash(page)).toBe('#/editor/tidy-commits');
    await page.locator('.monaco-editor').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('editor-keys').innerText()).toMatch(/Esc leaves it/);
    await page.locator('.monaco-editor textarea').first().focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab');
    await screenshot(page, 'jobs-editor-keys', false);
    // Glossary words carry their explanation (one module, same text everywhere).
    expect(await page.locator('.ed-meters [data-term="lazy"]').getAttribute('title')).toMatch(
      /^Lazy: the agent keeps only each skill’s stub/,
    );
    await page.keyboard.press('Alt+Shift+KeyB');
    await page.getByRole('dialog', { name: /Compile workspace/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: /Compile workspace/ }).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!ok)('the lock card re-pins after review; a bare folder is set up', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('re-pins an edited skill after its review, and offers no approval for a blocked one', async () => {
    const { page, errors } = await app.open();
    const root = app.project.project;
    await page.goto(app.served.url);
    await dashboard(page);
    // Edited in place: the dashboard sees the drift by itself.
    appendFileSync(join(root, '.kitbash/skills/release-notes/SKILL.md'), '\nList breaking changes first.\n');
    const row = page.locator('[role="row"][data-skill="release-notes"] .dash-lock');
    await expect.poll(() => row.getAttribute('class')).toBe('dash-lock drift');
    const repin = page.locator('[data-card="Lock"] [data-action="repin"]');
    expect(await repin.innerText()).toBe('Review and re-pin…');
    await repin.click();
    const dialog = page.getByRole('dialog', { name: 'Re-pin a skill in kitbash.lock' });
    await dialog.waitFor();
    // Two candidates: release-notes (drift) and tidy-commits (never pinned).
    await dialog.getByRole('combobox').selectOption('release-notes');
    await dialog.locator('[data-verdict="ready"]').waitFor({ timeout: 20_000 });
    expect(await dialog.innerText()).toMatch(/files differ from what kitbash\.lock pinned/);
    expect(await dialog.locator('.inst-review[data-review="release-notes"]').count()).toBe(1);
    await screenshot(page, 'jobs-repin-review', false);
    await dialog.locator('[data-action="approve-repin"]').click();
    await dialog.getByTestId('repin-done').waitFor({ timeout: 20_000 });
    expect(await dialog.getByTestId('repin-done').innerText()).toMatch(/Pinned release-notes@1\.2\.0/);
    expect(readFileSync(join(root, 'kitbash.lock'), 'utf8')).toMatch(
      /name = "release-notes"\nversion = "1\.2\.0"\nsource = "import:local"/,
    );
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect.poll(() => row.getAttribute('class')).toBe('dash-lock locked');
    await expect.poll(() => activeAction(page)).toBe('repin');

    // From the skill's drawer, too. tidy-commits breaks [policy].max_budget: the review says why, and
    // there is nothing to approve.
    await page.locator('[role="row"][data-skill="tidy-commits"] .skill-name').click();
    await page.getByRole('dialog', { name: 'Skill tidy-commits' }).locator('[data-action="repin-skill"]').click();
    await dialog.waitFor();
    await dialog.locator('[data-verdict="blocked"]').waitFor({ timeout: 20_000 });
    expect(await dialog.locator('.inst-blockers').innerText()).toMatch(/budget 6000 exceeds max_budget 2000/);
    expect(await dialog.locator('[data-action="approve-repin"]').isDisabled()).toBe(true);
    await screenshot(page, 'jobs-repin-blocked', false);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(readFileSync(join(root, 'kitbash.lock'), 'utf8')).not.toMatch(/name = "tidy-commits"/);
    expect(errors).toEqual([]);
  });

  it('a folder without kitbash.toml is set up for the targets chosen in its picker, each priced', async () => {
    const { page, errors } = await app.open();
    await page.goto(app.served.url);
    await dashboard(page);
    const bare = mkdtempSync(join(app.project.root, 'bare-'));
    // A Cursor folder and one skill not yet set up: cursor is proposed, and every choice is priced for the skill.
    mkdirSync(join(bare, '.cursor'));
    mkdirSync(join(bare, '.kitbash', 'skills', 'house-style'), { recursive: true });
    writeFileSync(
      join(bare, '.kitbash', 'skills', 'house-style', 'SKILL.md'),
      `---\nname: house-style\ndescription: The house style for this code.\n---\n# House style\n\n${'Prefer small functions. '.repeat(80)}\n`,
    );
    await page.locator('[data-action="switch-project"]').click();
    await page.getByLabel('Folder path').fill(bare);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const note = page.getByTestId('setup-note');
    await note.waitFor();
    expect(await note.innerText()).toMatch(/not set up as a project yet/);
    const picker = note.getByTestId('setup-targets');
    const box = (id: string) => picker.locator(`[data-target="${id}"] input`);
    const cost = async (id: string) =>
      Number(await picker.locator(`[data-target="${id}"] .dash-setup-target-cost`).getAttribute('data-cost'));
    expect(await box('cursor').isChecked()).toBe(true);
    expect(await box('agentsmd').isChecked()).toBe(false);
    expect(await cost('agentsmd')).toBeGreaterThan(300);
    expect(await cost('cursor')).toBeLessThan(50);
    await page.setViewportSize({ width: 1400, height: 900 });
    await screenshot(page, 'jobs-setup-picker-1400', false);
    await page.setViewportSize({ width: 900, height: 700 });
    await note.scrollIntoViewIfNeeded();
    await screenshot(page, 'jobs-setup-picker-900', false);
    await page.setViewportSize({ width: 1400, height: 900 });
    // Nothing ticked: nothing can be set up.
    await box('cursor').uncheck();
    expect(await note.locator('[data-action="init"]').isDisabled()).toBe(true);
    await box('claude-code').check();
    await box('aider').check();
    await note.locator('[data-action="init"]').click();
    await note.waitFor({ state: 'detached' });
    const written = readFileSync(join(bare, 'kitbash.toml'), 'utf8');
    expect(written).toMatch(/^# kitbash project configuration/);
    expect(written).toMatch(/^targets = \["claude-code", "aider"\]$/m);
    expect(existsSync(join(bare, '.kitbash', 'skills'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
