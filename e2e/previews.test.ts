/**
 * Compiled previews end to end in Chromium over `skillsmith serve`: every target's preview
 * follows the unsaved body as it is typed, the diff against disk, and the plan-first
 * Compile. Screenshots land in e2e/artifacts/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot } from './support/browser';
import { scratchWorkspace, type Served } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());

const output = (page: Page, path: string) =>
  page.locator(`.pv-file[data-path="${path}"] [data-testid="preview-output"]`);

async function selectTarget(page: Page, id: string): Promise<void> {
  await page.locator(`.pv-tab[data-target="${id}"]`).click();
  await page.locator(`.pv-detail[data-target="${id}"]`).waitFor();
}

/** The file each target writes for prereview in the example workspace. */
const FILES: Record<string, string> = {
  'claude-code': '.claude/skills/prereview/SKILL.md',
  cursor: '.cursor/rules/prereview.mdc',
  agentsmd: 'AGENTS.md',
};

describe.skipIf(!ok)('compiled previews in Chromium', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  let ws: ReturnType<typeof scratchWorkspace>;
  let served: Served;
  const open = () => app.open({ height: 1000 });

  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
    ({ project: ws, served } = app);
  });

  afterAll(async () => {
    // serve answers SIGTERM; do not let a slow exit under load fail the suite.
    await app?.close({ graceMs: 10_000 });
  }, 30_000);

  it('shows each active target with its status and standing cost, and every preview follows the body as it is typed', async () => {
    const { page, errors, offHost } = await open();
    await page.goto(`${served.url}#/previews/prereview`);
    await page.locator('.pv-tab').nth(2).waitFor({ timeout: 40_000 });
    expect(
      await page
        .locator('.pv-tab')
        .evaluateAll((els) =>
          els.map((e) => `${(e as HTMLElement).dataset.target}:${(e as HTMLElement).dataset.status}`),
        ),
    ).toEqual([
      'claude-code:full',
      // The body says to run scripts/check.sh, which Cursor's rule file cannot carry.
      'cursor:degraded',
      'agentsmd:degraded',
    ]);
    const facts = await page.getByTestId('skill-facts').innerText();
    expect(facts).toMatch(/prereview[\s\S]*body 284 \/ 1,500 tok/);
    // Lazy claude-code keeps only the description resident; eager AGENTS.md pays the whole text.
    const standing = async (id: string) =>
      Number(await page.locator(`.pv-tab[data-target="${id}"] .pv-tab-cost`).getAttribute('data-standing'));
    const agentsBefore = await standing('agentsmd');
    expect(agentsBefore).toBeGreaterThan((await standing('claude-code')) * 3);
    await selectTarget(page, 'agentsmd');
    expect(await page.locator('[data-reason="eager-only"]').innerText()).toMatch(/agentsmd loads everything eagerly/);
    await selectTarget(page, 'claude-code');
    // Polled and by textContent: the preview renders after the tab switch, and content-visibility
    // leaves innerText empty for lines not yet laid out (seen under load in CI).
    await expect
      .poll(async () => (await output(page, FILES['claude-code']!).textContent()) ?? '', { timeout: 10_000 })
      .toMatch(/^---\nname: prereview\n/);
    await screenshot(page, 'previews');

    // Type into the body, a few words at a time; after each step every target's preview has them.
    const draft = page.getByLabel('Draft of SKILL.md');
    await draft.click();
    await page.keyboard.press('Control+End');
    const words = ['Cite', 'the', 'line', 'numbers', 'you', 'reviewed.'];
    let typed = '\n\n';
    await page.keyboard.type(typed);
    for (const w of words) {
      typed += `${w} `;
      await draft.focus();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(`${w} `);
      const want = typed.trim();
      for (const id of ['claude-code', 'cursor', 'agentsmd']) {
        await selectTarget(page, id);
        await page
          .waitForFunction(
            ([sel, text]) => (document.querySelector(sel!)?.textContent ?? '').includes(text!),
            [`.pv-file[data-path="${FILES[id]}"] [data-testid="preview-output"]`, want] as const,
            { timeout: 5_000 },
          )
          .catch(async (e: unknown) => {
            await screenshot(page, 'previews-debug');
            throw new Error(
              `${id}: ${JSON.stringify(want)} not in ${JSON.stringify((await page.locator(`.pv-file[data-path="${FILES[id]}"]`).innerText()).slice(-600))}: ${String(e)}`,
            );
          });
      }
    }
    expect(await standing('agentsmd')).toBeGreaterThan(agentsBefore);
    await selectTarget(page, 'agentsmd');
    // AGENTS.md opens on this skill's own section; the whole merged file keeps the other skills' sections around it.
    const section = await output(page, 'AGENTS.md').innerText();
    expect(section).toMatch(/^<!-- kitbash:begin prereview -->/);
    expect(section).not.toContain('api-style');
    await page.locator('.pv-file[data-path="AGENTS.md"]').getByRole('button', { name: 'Whole file' }).click();
    // textContent: lines scrolled out of view are not rendered (content-visibility), so innerText would skip them.
    const agents = (await output(page, 'AGENTS.md').textContent()) ?? '';
    expect(agents).toContain('<!-- kitbash:begin api-style -->');
    expect(agents).toContain('Cite the line numbers you reviewed.');
    await screenshot(page, 'previews-typed');

    // The other targets, as compile would write them once added to [project].targets.
    await page.getByTestId('toggle-inactive').click();
    await page.locator('.pv-tab').nth(10).waitFor();
    expect(await page.locator('.pv-tab.inactive').count()).toBe(8);
    await selectTarget(page, 'zed');
    expect(await page.getByTestId('inactive-note').innerText()).toMatch(/zed is not a target of this project/);
    expect(await output(page, '.agents/skills/prereview/SKILL.md').textContent()).toContain(
      'Cite the line numbers you reviewed.',
    );
    await screenshot(page, 'previews-other-targets');
    expect(errors).toEqual([]);
    expect(offHost).toEqual([]);
  });

  it('diffs against disk, compiles after showing the plan, then shows the unsaved edit as drift', async () => {
    const { page, errors } = await open();
    await page.goto(`${served.url}#/previews/prereview`);
    await page.locator('.pv-tab').nth(2).waitFor({ timeout: 40_000 });
    const file = page.locator(`.pv-file[data-path="${FILES['claude-code']}"]`);
    expect(await file.getAttribute('data-state')).toBe('new');
    await file.getByRole('button', { name: 'Diff vs disk' }).click();
    expect(await file.getByTestId('preview-diff').innerText()).toMatch(/not on disk yet — compile creates it/);

    // Compile: the plan first — nothing is written until it is applied.
    await page.getByRole('button', { name: 'Compile…' }).click();
    const dialog = page.getByRole('dialog', { name: /Compile workspace/ });
    await dialog.getByTestId('compile-plan').waitFor();
    const writes = await dialog
      .locator('[data-group="write"] .pv-plan-row')
      .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.path));
    expect(writes).toContain(FILES['claude-code']);
    expect(writes).toContain(FILES.cursor);
    expect(
      await dialog
        .locator('[data-group="merge"] .pv-plan-row')
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.path)),
      // prereview's script brings Claude Code's script guard into its settings (SPEC D200).
    ).toEqual(['AGENTS.md', '.claude/settings.json']);
    expect(() => readFileSync(join(ws.project, FILES['claude-code']!))).toThrow();
    expect(await dialog.getByTestId('unsaved-note').count()).toBe(0);
    // dependency-audit pipes curl into sh: the plan says it is not delivered, why, and the way forward.
    expect(writes.some((w) => w?.includes('dependency-audit'))).toBe(false);
    const held = dialog.getByTestId('compile-plan').getByTestId('compile-withheld');
    expect(await held.locator('li').evaluateAll((li) => li.map((l) => (l as HTMLElement).dataset.skill))).toEqual([
      'dependency-audit',
    ]);
    expect(await held.locator('li[data-skill="dependency-audit"]').getAttribute('data-reason')).toBe('blocked');
    expect(await held.innerText()).toMatch(
      /dependency-audit: fails a blocking check: remote-exec — .* at scripts\/audit\.sh:5\. To deliver it: .*\[\[policy\.exceptions\]\]/,
    );
    await screenshot(page, 'compile-plan', false);
    await dialog.getByTestId('apply-compile').click();
    await dialog.getByTestId('compile-result').waitFor();
    expect(await dialog.getByTestId('compile-result').innerText()).toMatch(/compiled 4 skills for 3 targets/);
    expect(await dialog.getByTestId('compile-result').getByTestId('compile-withheld').innerText()).toMatch(
      /dependency-audit/,
    );
    expect(() => readFileSync(join(ws.project, '.claude/skills/dependency-audit/SKILL.md'))).toThrow();
    expect(readFileSync(join(ws.project, FILES['claude-code']!), 'utf8')).toMatch(/name: prereview/);
    await dialog.locator('.modal-actions').getByRole('button', { name: 'Close' }).click();

    // The snapshot refreshes: the saved skill is now up to date everywhere.
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'same',
      `.pv-file[data-path="${FILES['claude-code']}"]`,
      { timeout: 10_000 },
    );

    // An unsaved edit is drift against the compiled output: the diff shows exactly the new line.
    await page
      .getByLabel('Draft of SKILL.md')
      .fill(
        `${readFileSync(join(ws.project, '.kitbash/skills/prereview/SKILL.md'), 'utf8')}Never approve your own change.\n`,
      );
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'changed',
      `.pv-file[data-path="${FILES['claude-code']}"]`,
    );
    await file.getByRole('button', { name: 'Diff vs disk' }).click();
    const diff = file.getByTestId('preview-diff');
    expect(await diff.getAttribute('data-added')).toBe('1');
    expect(await diff.getAttribute('data-removed')).toBe('0');
    expect(await diff.locator('.pv-dl.add').innerText()).toMatch(/Never approve your own change\./);
    await screenshot(page, 'previews-diff');

    // Compile now warns that unsaved edits are not part of it.
    await page.getByRole('button', { name: 'Compile…' }).click();
    await page.getByTestId('unsaved-note').waitFor();
    expect(await page.getByTestId('apply-compile').innerText()).toMatch(/nothing to change/);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });

  it("through the editor: every target's preview follows the body typed in Monaco, unsaved", async () => {
    const { page, errors } = await open();
    await page.goto(served.url);
    await page.locator('.app-project-name').waitFor({ timeout: 30_000 });
    await page.evaluate(() => (window.location.hash = '#/editor/release-notes'));
    await page
      .locator('.ed-host .monaco-editor')
      .waitFor({ timeout: 30_000 })
      .catch(async (e: unknown) => {
        await screenshot(page, 'editor-previews-debug');
        throw e;
      });
    await page.waitForFunction(() => window.__skillsmithEditor?.analysis() != null, null, { timeout: 30_000 });
    const panel = page.locator('.pv-pane[data-skill="release-notes"]');
    await panel.locator('.pv-tab').nth(2).waitFor({ timeout: 40_000 });
    const files: Record<string, string> = {
      'claude-code': '.claude/skills/release-notes/SKILL.md',
      cursor: '.cursor/rules/release-notes.mdc',
      agentsmd: 'AGENTS.md',
    };
    const end = async () => {
      const lines = (await page.evaluate(() => window.__skillsmithEditor!.value('SKILL.md')))!.split('\n').length;
      await page.evaluate((l) => window.__skillsmithEditor!.goto(l, 1), lines);
      await page.keyboard.press('End');
    };
    await end();
    await page.keyboard.press('Enter');
    let typed = '';
    for (const w of ['Mention', 'every', 'breaking', 'change', 'first.']) {
      await end();
      await page.keyboard.type(`${typed ? ' ' : ''}${w}`);
      typed += `${typed ? ' ' : ''}${w}`;
      for (const id of ['claude-code', 'cursor', 'agentsmd']) {
        await panel.locator(`.pv-tab[data-target="${id}"]`).click();
        await page.waitForFunction(
          ([sel, text]) => (document.querySelector(sel!)?.textContent ?? '').includes(text!),
          [`.pv-pane .pv-file[data-path="${files[id]}"] [data-testid="preview-output"]`, typed] as const,
          { timeout: 5_000 },
        );
      }
    }
    // Unsaved: the file on disk does not have it, and the preview says its output differs from disk.
    expect(readFileSync(join(ws.project, '.kitbash/skills/release-notes/SKILL.md'), 'utf8')).not.toContain(
      'Mention every breaking change first.',
    );
    expect(await panel.locator(`.pv-file[data-path="${files.agentsmd}"]`).getAttribute('data-state')).not.toBe('same');
    await screenshot(page, 'editor-previews');
    expect(errors).toEqual([]);
  });
});
